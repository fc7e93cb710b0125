//go:build kueue_v0_18

package config

import "embed"

// kueue holds the manifests of the Kueue release hack/kueue/v0.18.2.mod requires.
//
//go:embed kueue/v0.18.2
var kueue embed.FS
