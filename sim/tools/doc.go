// Package tools builds the binaries a kueue-sim control plane runs —
// kube-apiserver, kube-scheduler, kube-controller-manager and etcd, and for
// the container-free e2e cluster kwok and kwokctl — from source with the Go
// toolchain, into the folder sim/assets finds them in.
//
// The versions come from the modules embedded under pins/ (go.mod, go.sum and
// tools.go stored as *.txt, so that they are no nested module of kueue-sim's):
// an Installer writes a pinned module to a temporary folder and runs go build
// there, with the version ldflags `kubectl version` and kwokctl expect. The
// same files serve `sim tools install` in an installed binary and `make
// tools` in a clone, so both build the same thing. kwok and kwokctl need a
// newer k8s.io than Kubernetes itself, so they are built with go install
// module@version from their own go.mod.
//
// Binaries already present are kept; KUBEBUILDER_ASSETS, when set, names the
// folder to use instead and nothing is built. The first build takes minutes;
// later ones reuse Go's build cache.
package tools
