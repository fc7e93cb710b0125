package engine

import (
	"context"

	"github.com/kueue-sim/kueue-sim/sim/kueuesetup"
	"github.com/kueue-sim/kueue-sim/sim/settle"
)

// parkTimeout bounds the wait for Kueue's scheduler to come back for heads
// once held: a cycle of thousands of heads takes seconds, not minutes.
const parkTimeout = settle.Timeout

// cycleUnderWay is the settle's count of steps whose control plane looked
// quiet while one of Kueue's scheduling cycles was still under way.
const cycleUnderWay = "Kueue's scheduler was in a cycle when the control plane looked quiet"

// park ends a step with Kueue's scheduler held and waiting for heads, so
// that the next instant starts where this one ended whatever the machine's
// speed. A settle judges quiet from what the control plane shows (writes,
// work queues, Kueue's pending gauge); a scheduling cycle that has taken
// its heads shows nothing until it writes, and on a loaded machine it can
// go without writing for longer than the settle's quiet polls. If Kueue
// finished a cycle while park waited for its scheduler, the step was not
// over: park lets Kueue go on, settles again and parks again.
//
// The scheduler stays held until the next step releases it, except in
// realtime runs, where what Kueue does on wall time between instants
// (its status batching) elapses alongside simulated time.
func (r *Runner) park(ctx context.Context, waitQuiet func(also func() settle.Busy) error) error {
	if r.t.Gate == nil {
		return nil
	}
	for {
		before, err := kueuesetup.TotalCycles()
		if err != nil {
			return err
		}
		if err := r.t.Gate.Park(ctx, parkTimeout); err != nil {
			return err
		}
		after, err := kueuesetup.TotalCycles()
		if err != nil {
			return err
		}
		if after == before {
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
