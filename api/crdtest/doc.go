// Package crdtest checks the generated CRDs of package api against a real
// kube-apiserver (envtest, no controllers): the CEL rules, defaults and
// enums a user meets when applying the objects.
package crdtest
