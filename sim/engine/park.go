package engine

import (
	"context"
	"fmt"

	kueuemetrics "sigs.k8s.io/kueue/pkg/metrics"

	"github.com/kueue-sim/kueue-sim/sim/kueuesetup"
	"github.com/kueue-sim/kueue-sim/sim/settle"
)

// parkTimeout bounds the wait for Kueue's scheduler to come back for heads
// once held: a cycle of thousands of heads takes seconds, not minutes.
const parkTimeout = settle.Timeout

// cycleUnderWay is the settle's count of steps whose control plane looked
// quiet while one of Kueue's scheduling cycles was still under way.
const cycleUnderWay = "Kueue's scheduler was in a cycle when the control plane looked quiet"

// idleCycleUnderWay counts the steps where that cycle changed nothing.
const idleCycleUnderWay = "Kueue's scheduler ended a cycle that changed nothing"

// park ends a step with Kueue's scheduler held and waiting for heads, so
// that the next instant starts where this one ended whatever the machine's
// speed. A settle judges quiet from what the control plane shows (writes,
// work queues, Kueue's pending gauge); a scheduling cycle that has taken
// its heads shows nothing until it writes, and on a loaded machine it can
// go without writing for longer than the settle's quiet polls. If Kueue
// finished a cycle while park waited for its scheduler, the step was not
// over: park lets Kueue go on, settles again and parks again; unless the
// cycles that finished admitted nothing, evicted nothing and wrote
// nothing, as a StrictFIFO ClusterQueue's waiting head makes every cycle
// do: they changed nothing to settle.
//
// The scheduler stays held until the next step releases it, except in
// realtime runs, where what Kueue does on wall time between instants
// (its status batching) elapses alongside simulated time.
func (r *Runner) park(ctx context.Context, waitQuiet func(also func() settle.Busy) error) error {
	if r.t.Gate == nil {
		return nil
	}
	for {
		before, err := r.schedulerMark(ctx)
		if err != nil {
			return err
		}
		if err := r.t.Gate.Park(ctx, parkTimeout); err != nil {
			return err
		}
		after, err := r.schedulerMark(ctx)
		if err != nil {
			return err
		}
		if after.cycles == before.cycles {
			break
		}
		if after.idleSince(before) {
			r.settle.Tally(idleCycleUnderWay)
			break
		}
		r.settle.Tally(cycleUnderWay)
		r.t.Gate.Unpark()
		if err := waitQuiet(nil); err != nil {
			return err
		}
	}
	if r.realtime {
		r.t.Gate.Release()
	}
	return nil
}

// schedulerMark is what Kueue's scheduler has done so far: its cycles, the
// cycles that admitted, the evictions it wrote, and etcd's revision of the
// last write that can change a decision (-1: unknown).
type schedulerMark struct {
	cycles, admitting float64
	evictions         int64
	revision          int64
}

func (r *Runner) schedulerMark(ctx context.Context) (schedulerMark, error) {
	by, err := kueuesetup.SchedulingCycles()
	if err != nil {
		return schedulerMark{}, err
	}
	m := schedulerMark{admitting: by[string(kueuemetrics.AdmissionResultSuccess)], evictions: r.t.Gate.Evictions(), revision: -1}
	for _, n := range by {
		m.cycles += n
	}
	if rev := r.t.DecisionRevision; rev != nil {
		if m.revision, err = rev(ctx); err != nil {
			return schedulerMark{}, fmt.Errorf("reading etcd's revision: %w", err)
		}
	}
	return m, nil
}

// idleSince tells whether the cycles between was and m admitted nothing,
// evicted nothing and wrote nothing that can change a decision.
func (m schedulerMark) idleSince(was schedulerMark) bool {
	return m.revision >= 0 && m.revision == was.revision && m.admitting == was.admitting && m.evictions == was.evictions
}
