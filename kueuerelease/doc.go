// Package kueuerelease names the Kueue releases kueue-sim runs: the one
// compiled into this binary, the ones kueue-sim builds against, and how a
// scenario's per-release keys ("v0.19", "v0.19.2") select among them.
//
// One Go binary links one Kueue. The default build links the release
// go.mod requires; every other supported release is the same source built
// with its own module file (hack/kueue/<release>.mod) and build tag
// (kueue_v0_<minor>), and each build's compiled_*.go names its release.
package kueuerelease
