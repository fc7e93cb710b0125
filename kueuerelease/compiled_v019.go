//go:build kueue_v0_19

package kueuerelease

// compiled is the Kueue release hack/kueue/v0.19.2.mod requires.
const compiled = "v0.19.2"
