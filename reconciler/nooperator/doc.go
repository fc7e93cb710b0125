// Package nooperator tests the OpenShift AI reconciler on a control plane
// without the Red Hat build of Kueue operator (its CRD is left out). A
// process runs one Kueue, hence one control plane: these tests live apart
// from package reconciler's, which run with the operator installed.
package nooperator
