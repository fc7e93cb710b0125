package metrics

import (
	"time"

	"github.com/kueue-sim/kueue-sim/sim/record"
)

// PendingCountsAt is clusterQueue's pending workloads at simulated time t,
// as Kueue's kueue_pending_workloads gauge published them: the latest
// PendingCounts event at or before t (the log records a change only), and
// the time it was recorded. False before the first, or when the log holds
// none for the ClusterQueue (Kueue not in process, or a log recorded
// before kueue-sim observed the counts).
func PendingCountsAt(run *record.Run, clusterQueue string, t time.Duration) (record.PendingCounts, time.Duration, bool) {
	var (
		got   record.PendingCounts
		since time.Duration
		found bool
	)
	for _, e := range run.PendingCounts {
		if e.ClusterQueue != clusterQueue || e.T.D() > t {
			continue
		}
		if !found || e.T.D() >= since {
			got, since, found = *e.Counts, e.T.D(), true
		}
	}
	return got, since, found
}

// HasPendingCounts tells whether the log recorded any ClusterQueue's
// pending-workload counts.
func HasPendingCounts(run *record.Run) bool { return len(run.PendingCounts) > 0 }
