// Package kind is kueue-sim's e2e suite on a kind cluster, where Docker
// and kind exist: workers labelled as GPU nodes of two models with a fake
// nvidia.com/gpu capacity (patched node status), Kueue v0.17 from its
// release manifests, cert-manager, and kueue-sim's platform deployed from
// config/deploy/overlays/kind (image built from the Dockerfile and loaded
// into the nodes). It runs the features of package features. Without
// Docker, kind or kubectl its tests skip, saying which is missing. Build tag
// e2e (`make e2e`).
package kind
