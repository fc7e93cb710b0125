package expect

import (
	"fmt"
	"strings"

	"github.com/kueue-sim/kueue-sim/scenarios"
	"github.com/kueue-sim/kueue-sim/sim/metrics"
	"github.com/kueue-sim/kueue-sim/sim/record"
)

// pendingCounts checks Kueue's count of a ClusterQueue's pending workloads
// at a time: the counts recorded at the latest settled instant at or
// before it. The message gives both counts and when they were recorded,
// then what was wanted where they differ.
func pendingCounts(run *record.Run, x *scenarios.PendingCountsExpectation) Result {
	const check = "pendingCounts"
	at := x.At.Duration
	got, since, ok := metrics.PendingCountsAt(run, x.ClusterQueue, at)
	if !ok {
		why := "the log records none for it (was Kueue run in process?)"
		switch {
		case !metrics.HasPendingCounts(run):
			why = "the log records no pending counts (Kueue was not in process, or the log predates them)"
		case run.End < at:
			why = fmt.Sprintf("the run ended at %s, before it", run.End)
		case hasCountsOf(run, x.ClusterQueue):
			why = "Kueue had published none for it yet"
		}
		return Result{Check: check, Message: fmt.Sprintf("ClusterQueue %s at %s: no pending counts: %s", x.ClusterQueue, at, why)}
	}
	saw := fmt.Sprintf("ClusterQueue %s at %s: %d active, %d inadmissible pending (as of %s)", x.ClusterQueue, at, got.Active, got.Inadmissible, since)
	var want []string
	if x.Active != nil && int(*x.Active) != got.Active {
		want = append(want, fmt.Sprintf("%d active", *x.Active))
	}
	if x.Inadmissible != nil && int(*x.Inadmissible) != got.Inadmissible {
		want = append(want, fmt.Sprintf("%d inadmissible", *x.Inadmissible))
	}
	if len(want) > 0 {
		return Result{Check: check, Message: saw + ", want " + strings.Join(want, " and ")}
	}
	return Result{Check: check, Passed: true, Message: saw}
}

// hasCountsOf tells whether the log records counts of the ClusterQueue at
// any time.
func hasCountsOf(run *record.Run, clusterQueue string) bool {
	for _, e := range run.PendingCounts {
		if e.ClusterQueue == clusterQueue {
			return true
		}
	}
	return false
}
