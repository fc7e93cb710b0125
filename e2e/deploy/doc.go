// Package deploy checks config/deploy on a container-free cluster: the
// layout of a real install, without its containers. Kueue runs on its own
// (`sim serve --without-platform`, standing in for Kueue's release
// manifests; it also installs the CRDs, as an admin would); the manifests'
// Namespace, ServiceAccount and least-privilege RBAC are applied, and the
// committed webhook configurations pointed at a local address and
// certificate (the Service and cert-manager's part); then `sim serve` runs
// with the Deployment's flags, impersonating the manifests' ServiceAccount.
// The features of package features must pass, and sim must never have been
// refused a request. Build tag e2e (`make e2e`).
package deploy
