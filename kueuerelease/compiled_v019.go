//go:build !kueue_v0_16 && !kueue_v0_17 && !kueue_v0_18

package kueuerelease

// compiled is the Kueue release go.mod requires.
const compiled = Default
