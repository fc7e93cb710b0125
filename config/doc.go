// Package config embeds the Kubernetes manifests kueue-sim installs: its own
// CRDs (config/crd/bases), its dependencies' CRDs and Kueue's webhook
// configuration (config/*/third_party: copies of the files in the modules
// go.mod pins, committed so that `go build ./cmd/sim` and `go install` make a
// working binary; TestThirdPartyManifestsMatchPinnedModules fails when they
// differ and rewrites them with -update, which `make manifests` runs).
//
// Keeping them in the binary makes `sim` self-contained: it does not need the
// source tree or the module cache at run time.
package config
