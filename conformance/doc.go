// Package conformance replays scenarios translated from Kueue's own
// integration tests (sigs.k8s.io/kueue test/integration/singlecluster) and
// checks that kueue-sim reaches the verdicts Kueue's authors assert: which
// workloads Kueue admits, on which flavor and ClusterQueue, which it
// preempts and why, and when.
//
// Each case is a scenario file under a folder named for the upstream test
// folder (scheduler/, ...). Its header names the upstream file, the Context
// and It texts, and the Kueue release it was read from; its expectations
// encode the upstream assertions, mostly as `workload:` checks. A case whose
// upstream assertion differs between Kueue releases says so in its header.
//
// The cases run with `make conformance` (and in `make test`): each replays
// with `sim run` on a fresh embedded control plane, in a process of its own
// (a process runs at most one Kueue), and fails with the expectations' own
// wording.
package conformance
