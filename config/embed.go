package config

import "embed"

// Manifests holds every CRD and webhook manifest kueue-sim installs into the
// control plane it starts. Files under */third_party are copied from the Go
// module cache by `make manifests`; the rest are kueue-sim's own.
//
//go:embed crd webhook
var Manifests embed.FS
