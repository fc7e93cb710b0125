// Package scenario checks that a bundled scenario gives the same decisions
// on the embedded control plane and on a container-free KWOK cluster: `sim
// run` replays scenarios/flavor-placement.yaml once embedded and once with
// --kubeconfig on a kwokctl cluster (--kwok-nodes makes its node pools), and
// the two runs' admissions (ClusterQueue, flavors, usage, simulated time)
// and placements (node pool) must be equal, workload by workload. The test
// carries the build tag e2e (`make e2e`).
package scenario
