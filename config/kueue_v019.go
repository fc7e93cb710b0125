//go:build !kueue_v0_16 && !kueue_v0_17 && !kueue_v0_18

package config

import "embed"

// kueue holds the manifests of the Kueue release go.mod requires.
//
//go:embed kueue/v0.19.2
var kueue embed.FS
