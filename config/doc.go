// Package config embeds the Kubernetes manifests kueue-sim installs: its own
// CRDs (config/crd/bases), its other dependencies' CRDs (config/crd/third_party:
// PyTorchJob, RayJob, RayCluster from the modules go.mod pins), and, per
// supported Kueue release, Kueue's CRDs and webhook configuration
// (config/kueue/<release>). All are copies of the modules' files, committed so
// that `go build ./cmd/sim` and `go install` make a working binary;
// TestThirdPartyManifestsMatchPinnedModules fails when they differ and
// rewrites them with -update, which `make manifests` runs.
//
// A build embeds the Kueue manifests of the one release it runs (build tags
// kueue_v0_<minor>, as package kueuerelease), so the API server of a replay
// serves that release's schema: a field only a newer Kueue writes is not
// pruned by an older release's CRD.
//
// Keeping them in the binary makes `sim` self-contained: it does not need the
// source tree or the module cache at run time.
package config
