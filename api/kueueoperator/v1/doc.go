// Package v1 holds the Kueue type of the Red Hat build of Kueue operator
// (kueue.openshift.io/v1): one cluster-scoped instance named "cluster" that
// tells the operator how to run Kueue. kueue-sim runs the real Kueue in
// process whatever this object says; the object is there because the
// platform creates it and scenarios may read it.
//
// Its CRD is optional (config/crd/optional): its presence is what "the
// operator is installed" means to the platform.
//
// +kubebuilder:object:generate=true
// +groupName=kueue.openshift.io
package v1
