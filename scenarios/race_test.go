//go:build race

package scenarios

// raceDetector: the race detector multiplies allocations and time, so the
// bounds of TestLoadWorstCases do not hold under it.
const raceDetector = true
