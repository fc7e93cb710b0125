//go:build !kueue_v0_16 && !kueue_v0_18 && !kueue_v0_19

package config

import "embed"

// kueue holds the manifests of the Kueue release go.mod requires.
//
//go:embed kueue/v0.17.1
var kueue embed.FS
