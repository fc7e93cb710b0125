package scenarios

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// PendingCountsExpectation is Kueue's count of one ClusterQueue's pending
// workloads at one simulated time, as Kueue's integration tests assert it
// (util.ExpectPendingWorkloadsMetric): its kueue_pending_workloads gauge,
// read once the instant settled. Every count given holds, and at least
// one is given.
type PendingCountsExpectation struct {
	// ClusterQueue is the ClusterQueue whose counts are checked.
	ClusterQueue string `json:"clusterQueue"`
	// At is the simulated time; the counts are those recorded at the
	// latest settled instant at or before it.
	At *metav1.Duration `json:"at,omitempty"`
	// Active is how many wait in the ClusterQueue's admission queue.
	Active *int32 `json:"active,omitempty"`
	// Inadmissible is how many failed an admission attempt and wait for
	// the cluster to change (or wait in a ClusterQueue Kueue holds
	// inactive).
	Inadmissible *int32 `json:"inadmissible,omitempty"`
}
