//go:build tools

// Package k8sbin pins the Kubernetes commands that hack/build-tools.sh builds.
package k8sbin

import (
	_ "k8s.io/kubernetes/cmd/kube-apiserver"
	_ "k8s.io/kubernetes/cmd/kube-controller-manager"
	_ "k8s.io/kubernetes/cmd/kube-scheduler"
)
