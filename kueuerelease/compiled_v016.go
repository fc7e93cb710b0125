//go:build kueue_v0_16

package kueuerelease

// compiled is the Kueue release hack/kueue/v0.16.2.mod requires.
const compiled = "v0.16.2"
