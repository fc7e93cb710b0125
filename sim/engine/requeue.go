package engine

import (
	"context"
	"time"
)

// Requeues is Kueue's requeuing of inadmissible workloads, run by the
// replay (kueuesetup.Requeues). Kueue, when something frees quota, asks for
// the ClusterQueue's or cohort tree's inadmissible workloads to be retried
// one batch period later; here that period is simulated time:
//
//   - at the end of each step, if Kueue has asked and no requeue instant
//     is planned, the engine plans one, Period after this instant;
//   - at that instant, with Kueue's scheduler held, Process moves the
//     inadmissible workloads back to Kueue's active queues before the
//     instant's arrivals are submitted, so Kueue schedules the backlog and
//     the newcomers together.
//
// A requeue instant that is all that is left of a run, with no workload
// pending, is dropped: it could admit nothing, and it would stretch the
// run's simulated span.
type Requeues interface {
	// Period is Kueue's batch period.
	Period() time.Duration
	// Pending names the requests not yet processed.
	Pending() []string
	// Process retries every request's inadmissible workloads; it needs
	// Kueue quiet with its scheduler held.
	Process(ctx context.Context) int
}

// planRequeue plans a requeue instant if Kueue has asked for one and none is
// planned. The loop calls it once a step has settled.
func (r *Runner) planRequeue() {
	if r.t.Requeues == nil || r.requeuePlanned || len(r.t.Requeues.Pending()) == 0 {
		return
	}
	r.requeuePlanned = true
	r.queue.push(&item{at: r.clock.Elapsed() + r.t.Requeues.Period(), act: actRequeue})
}

// requeue processes Kueue's requests if items hold this instant's requeue.
// The caller holds Kueue's scheduler; the previous step left the control
// plane quiet.
func (r *Runner) requeue(ctx context.Context, items []*item) {
	for _, it := range items {
		if it.act == actRequeue {
			r.requeuePlanned = false
			r.t.Requeues.Process(ctx)
			return
		}
	}
}

// onlyIdleRequeue tells whether all that is left of the run is a requeue
// instant with no workload pending to retry.
func (r *Runner) onlyIdleRequeue() bool {
	return r.pending == 0 && len(r.queue.items) == 1 && r.queue.items[0].act == actRequeue
}
