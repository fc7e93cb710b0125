// Package assets finds what a kueue-sim control plane is made of: the
// kube-apiserver, etcd, kube-scheduler and kube-controller-manager binaries
// (built from source by `sim tools install`, see sim/tools, or provided
// through KUBEBUILDER_ASSETS) and the CRD and webhook manifests embedded from
// config/.
package assets
