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
// A requeue instant with nothing else due at its time, while Kueue's
// queues hold no pending workload, is not a step: it could decide nothing.
// The engine clears Kueue's requests there without settling
// (skipIdleRequeue). Whether such an instant is planned at all can depend
// on whether Kueue's request (after a deletion that freed quota) landed
// before or after the previous step settled; skipped, it changes neither
// the run's steps nor its simulated span.
type Requeues interface {
	// Period is Kueue's batch period.
	Period() time.Duration
	// Pending names the requests not yet processed.
	Pending() []string
	// Process retries every request's inadmissible workloads; it needs
	// Kueue quiet with its scheduler held.
	Process(ctx context.Context) int
	// Idle tells whether Kueue's queues hold no pending workload.
	Idle() bool
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

// skipIdleRequeue processes the next instant without a step when it holds
// only a requeue and Kueue has nothing pending to retry, and reports
// whether it did. Between steps Kueue is quiet with its scheduler parked,
// as Process needs.
func (r *Runner) skipIdleRequeue(ctx context.Context) bool {
	if r.t.Requeues == nil || !r.queue.onlyRequeueNext() || !r.t.Requeues.Idle() {
		return false
	}
	r.queue.popAt(r.queue.next())
	r.requeuePlanned = false
	r.t.Requeues.Process(ctx)
	return true
}
