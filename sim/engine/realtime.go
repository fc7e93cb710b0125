package engine

import (
	"context"
	"time"
)

// WithRealtime paces the replay to the wall clock: the instant at simulated
// time t starts no sooner than t after the first instant's wall time, so
// simulated time passes no faster than wall time (slower where settling
// takes longer). Kueue's clocks still read the simulated instant; what
// runs on wall time in Kueue (its status batching, controller-runtime's
// retries) then elapses alongside simulated time, as it would on a real
// cluster, and the Workload and LocalQueue reconcilers' waits (wake.go)
// are instants paced like any other. A
// scenario whose decisions are the same both ways does not depend on the
// virtual clock jumping.
func WithRealtime() Option { return func(r *Runner) { r.realtime = true } }

// pace waits, in realtime runs, until the wall time of simulated time t.
func (r *Runner) pace(ctx context.Context, t time.Duration) error {
	if !r.realtime {
		return nil
	}
	if r.wallStart.IsZero() {
		r.wallStart = time.Now().Add(-t)
	}
	d := time.Until(r.wallStart.Add(t))
	if d <= 0 {
		return nil
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-timer.C:
		return nil
	}
}
