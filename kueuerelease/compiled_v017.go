//go:build !kueue_v0_16 && !kueue_v0_18 && !kueue_v0_19

package kueuerelease

// compiled is the Kueue release go.mod requires.
const compiled = Default
