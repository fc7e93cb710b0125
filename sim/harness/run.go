package harness

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/kueue-sim/kueue-sim/scenarios"
	"github.com/kueue-sim/kueue-sim/sim/engine"
)

// Result is what a run produced: the replay's result and what only the run
// around it knows.
type Result struct {
	*engine.Result
	// Scenario is the scenario as replayed: on an existing cluster, with
	// its namespaces prefixed.
	Scenario *scenarios.Scenario
	// Simulated is how far the run's clock got, also when the replay was
	// interrupted.
	Simulated time.Duration
	// StopErr is the target's failure to stop once the replay ended; the
	// replay's results stand.
	StopErr error
}

// replayFunc replays s on t.
type replayFunc func(ctx context.Context, s *scenarios.Scenario, t engine.Target, clock *engine.VirtualClock, opts []engine.Option) (*engine.Result, error)

func replay(ctx context.Context, s *scenarios.Scenario, t engine.Target, clock *engine.VirtualClock, opts []engine.Option) (*engine.Result, error) {
	return engine.New(s, t, clock, opts...).Run(ctx)
}

// Run replays s on the embedded control plane, or on the existing cluster
// of WithKubeconfig, and stops the target when the replay ends.
//
// The Result is nil when no replay started: invalid options (IsInvalid),
// a target that did not start, a ControlPlaneHook that failed. Otherwise
// it holds what the replay recorded, also when Run's error says the replay
// was cut short, by ctx's end or by the control plane's (the error then
// wraps a *TargetFailedError).
func Run(ctx context.Context, s *scenarios.Scenario, opts ...Option) (*Result, error) {
	o := defaultOptions()
	for _, opt := range opts {
		opt(&o)
	}
	if err := o.validate(); err != nil {
		return nil, err
	}
	clock := o.clock
	if clock == nil {
		clock = &engine.VirtualClock{}
	}
	if o.realtime {
		clock.WallTimers()
	}
	t, err := o.start(ctx, s, clock, &o)
	if err != nil {
		return nil, err
	}
	stopped := false
	stop := func() error { stopped = true; return t.stop() }
	// A hook that panics, or ends its goroutine (t.Fatal in a test), still
	// leaves nothing running.
	defer func() {
		if !stopped {
			_ = t.stop()
		}
	}()

	var after func(*engine.Result, error) error
	if o.hook != nil {
		if after, err = o.hook(ctx, t.plane); err != nil {
			return nil, errors.Join(err, stop())
		}
	}
	replayed, runErr := o.replayWatched(ctx, t, clock)
	var afterErr error
	if after != nil {
		afterErr = after(replayed, runErr)
	}
	res := &Result{Result: replayed, Scenario: t.scenario, Simulated: clock.Elapsed()}
	res.StopErr = stop()
	switch {
	case afterErr == nil:
		return res, runErr
	case runErr == nil:
		return res, afterErr
	}
	return res, errors.Join(runErr, afterErr)
}

// replayWatched replays on t while watching it: a control plane that ends
// first cancels the replay, which would otherwise wait for a settle that
// never comes.
func (o *options) replayWatched(ctx context.Context, t *target, clock *engine.VirtualClock) (*engine.Result, error) {
	runCtx, cancel := context.WithCancelCause(ctx)
	watching := make(chan struct{})
	go func() {
		defer close(watching)
		select {
		case err := <-t.done:
			cancel(&TargetFailedError{Err: err})
		case <-runCtx.Done():
		}
	}()
	res, err := o.replay(runCtx, t.scenario, t.engine, clock, o.engineOptions())
	cancel(nil)
	// The watch ends before the target stops: the end a stop brings is no
	// failure.
	<-watching
	if err == nil {
		return res, nil
	}
	var died *TargetFailedError
	if errors.As(context.Cause(runCtx), &died) {
		return res, fmt.Errorf("running scenario %s: %w: %w", t.scenario.Name, died, err)
	}
	return res, fmt.Errorf("running scenario %s: %w", t.scenario.Name, err)
}
