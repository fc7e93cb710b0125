//go:build kueue_v0_16

package config

import "embed"

// kueue holds the manifests of the Kueue release hack/kueue/v0.16.2.mod requires.
//
//go:embed kueue/v0.16.2
var kueue embed.FS
