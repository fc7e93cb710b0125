//go:build kueue_v0_18

package kueuerelease

// compiled is the Kueue release hack/kueue/v0.18.2.mod requires.
const compiled = "v0.18.2"
