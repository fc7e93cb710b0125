package config

import "embed"

// Manifests holds every CRD and webhook manifest kueue-sim installs into the
// control plane it starts. Files under */third_party are the pinned
// dependencies' copies, committed and kept equal to them by a test (`make
// manifests` refreshes them); the rest are kueue-sim's own.
//
//go:embed crd webhook
var Manifests embed.FS
