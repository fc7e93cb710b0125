//go:build kueue_v0_17

package kueuerelease

// compiled is the Kueue release hack/kueue/v0.17.1.mod requires.
const compiled = "v0.17.1"
