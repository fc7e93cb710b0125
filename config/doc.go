// Package config embeds the Kubernetes manifests kueue-sim installs: its own
// CRDs (config/crd/bases), its dependencies' CRDs and Kueue's webhook
// configuration (config/*/third_party, copied from the Go module cache by
// `make manifests`, never committed).
//
// Keeping them in the binary makes `sim` self-contained: it does not need the
// source tree or the module cache at run time.
package config
