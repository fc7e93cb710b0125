//go:build kueue_v0_17

package config

import "embed"

// kueue holds the manifests of the Kueue release hack/kueue/v0.17.1.mod requires.
//
//go:embed kueue/v0.17.1
var kueue embed.FS
