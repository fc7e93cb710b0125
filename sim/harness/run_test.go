package harness

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/kueue-sim/kueue-sim/scenarios"
	"github.com/kueue-sim/kueue-sim/sim/cluster"
	"github.com/kueue-sim/kueue-sim/sim/engine"
)

// fakeTarget stands in for a control plane: done reports its end, and the
// run's steps are noted in order.
type fakeTarget struct {
	done    chan error
	stopErr error
	steps   []string
}

func newFakeTarget() *fakeTarget { return &fakeTarget{done: make(chan error, 1)} }

// options replaces the target's start and the engine's replay with fakes;
// replay stands in for the engine.
func (f *fakeTarget) options(replay replayFunc) Option {
	return func(o *options) {
		o.start = func(_ context.Context, s *scenarios.Scenario, _ *engine.VirtualClock, _ *options) (*target, error) {
			f.steps = append(f.steps, "start")
			return &target{scenario: s, done: f.done, stop: func() error {
				f.steps = append(f.steps, "stop")
				return f.stopErr
			}}, nil
		}
		o.replay = func(ctx context.Context, s *scenarios.Scenario, t engine.Target, clock *engine.VirtualClock, opts []engine.Option) (*engine.Result, error) {
			f.steps = append(f.steps, "replay")
			return replay(ctx, s, t, clock, opts)
		}
	}
}

var scenario = &scenarios.Scenario{Name: "fake"}

func replayed(steps int) replayFunc {
	return func(context.Context, *scenarios.Scenario, engine.Target, *engine.VirtualClock, []engine.Option) (*engine.Result, error) {
		return &engine.Result{Steps: steps}, nil
	}
}

// untilCancelled replays until ctx ends, at simulated minute 7, once
// started is closed.
func untilCancelled(started chan<- struct{}) replayFunc {
	return func(ctx context.Context, _ *scenarios.Scenario, _ engine.Target, clock *engine.VirtualClock, _ []engine.Option) (*engine.Result, error) {
		clock.Set(7 * time.Minute)
		close(started)
		<-ctx.Done()
		return &engine.Result{Steps: 3}, ctx.Err()
	}
}

// A control plane that dies mid-replay cancels the replay instead of
// leaving it to wait for a settle, and Run's error says why.
func TestDeadControlPlaneCancelsTheReplay(t *testing.T) {
	f := newFakeTarget()
	started := make(chan struct{})
	go func() {
		<-started
		f.done <- errors.New("etcd exited")
	}()
	res, err := Run(context.Background(), scenario, f.options(untilCancelled(started)))
	var died *TargetFailedError
	if !errors.As(err, &died) || died.Err.Error() != "etcd exited" {
		t.Fatalf("error %v, want a *TargetFailedError of etcd's exit", err)
	}
	if !errors.Is(err, context.Canceled) {
		t.Errorf("error %v does not wrap the replay's context.Canceled", err)
	}
	if want := "running scenario fake: control plane failed: etcd exited: context canceled"; err.Error() != want {
		t.Errorf("error %q, want %q", err, want)
	}
	if res == nil || res.Steps != 3 || res.Simulated != 7*time.Minute {
		t.Errorf("result %+v, want what the replay recorded (3 steps, 7m simulated)", res)
	}
	if want := []string{"start", "replay", "stop"}; !slices.Equal(f.steps, want) {
		t.Errorf("steps %v, want %v", f.steps, want)
	}
}

// A replay the caller cancels is interrupted, and no control plane failed.
func TestCancelledRunIsNoTargetFailure(t *testing.T) {
	f := newFakeTarget()
	ctx, cancel := context.WithCancel(context.Background())
	started := make(chan struct{})
	go func() {
		<-started
		cancel()
	}()
	res, err := Run(ctx, scenario, f.options(untilCancelled(started)))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	var died *TargetFailedError
	if errors.As(err, &died) {
		t.Errorf("error %v blames the control plane", err)
	}
	if res == nil || res.Simulated != 7*time.Minute {
		t.Errorf("result %+v, want the interrupted replay's, at 7m", res)
	}
}

// The hook sees the control plane before the replay and, through after,
// the replay's result before the control plane stops.
func TestControlPlaneHookBracketsTheReplay(t *testing.T) {
	f := newFakeTarget()
	hook := func(context.Context, *cluster.ControlPlane) (func(*engine.Result, error) error, error) {
		f.steps = append(f.steps, "hook")
		return func(res *engine.Result, err error) error {
			if res.Steps != 5 || err != nil {
				t.Errorf("after got %+v, %v; want the replay's 5 steps and no error", res, err)
			}
			f.steps = append(f.steps, "after")
			return nil
		}, nil
	}
	res, err := Run(context.Background(), scenario, f.options(replayed(5)), WithControlPlane(hook))
	if err != nil || res.Steps != 5 {
		t.Fatalf("Run: %+v, %v", res, err)
	}
	if want := []string{"start", "hook", "replay", "after", "stop"}; !slices.Equal(f.steps, want) {
		t.Errorf("steps %v, want %v", f.steps, want)
	}
}

// A hook that fails ends the run before the replay, and the control plane
// still stops.
func TestFailingHookStopsTheTarget(t *testing.T) {
	f := newFakeTarget()
	f.stopErr = errors.New("etcd would not stop")
	failed := errors.New("no metrics")
	hook := func(context.Context, *cluster.ControlPlane) (func(*engine.Result, error) error, error) {
		return nil, failed
	}
	res, err := Run(context.Background(), scenario, f.options(replayed(1)), WithControlPlane(hook))
	if res != nil || !errors.Is(err, failed) || !errors.Is(err, f.stopErr) {
		t.Errorf("Run: %+v, %v; want no result, and the hook's and the stop's errors", res, err)
	}
	if want := []string{"start", "stop"}; !slices.Equal(f.steps, want) {
		t.Errorf("steps %v, want %v", f.steps, want)
	}
}

// After's error fails a run whose replay succeeded.
func TestAfterErrorFailsTheRun(t *testing.T) {
	f := newFakeTarget()
	failed := errors.New("no metrics after")
	hook := func(context.Context, *cluster.ControlPlane) (func(*engine.Result, error) error, error) {
		return func(*engine.Result, error) error { return failed }, nil
	}
	res, err := Run(context.Background(), scenario, f.options(replayed(2)), WithControlPlane(hook))
	if !errors.Is(err, failed) || res == nil || res.Steps != 2 {
		t.Errorf("Run: %+v, %v; want the replay's result and after's error", res, err)
	}
}

// A target that fails to stop leaves the replay's results standing.
func TestStopErrorKeepsTheResult(t *testing.T) {
	f := newFakeTarget()
	f.stopErr = errors.New("etcd would not stop")
	res, err := Run(context.Background(), scenario, f.options(replayed(4)))
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if res.Steps != 4 || !errors.Is(res.StopErr, f.stopErr) {
		t.Errorf("result %+v, want 4 steps and the stop's error", res)
	}
}

// The run's clock is the caller's when given.
func TestWithClock(t *testing.T) {
	f := newFakeTarget()
	clock := &engine.VirtualClock{}
	var got *engine.VirtualClock
	rep := func(_ context.Context, _ *scenarios.Scenario, _ engine.Target, c *engine.VirtualClock, _ []engine.Option) (*engine.Result, error) {
		got = c
		return &engine.Result{}, nil
	}
	if _, err := Run(context.Background(), scenario, f.options(rep), WithClock(clock)); err != nil {
		t.Fatal(err)
	}
	if got != clock {
		t.Error("the replay ran on a clock of Run's own, not WithClock's")
	}
}

// A kubeconfig that cannot be read is bad input, like a conflict.
func TestUnreadableKubeconfigIsInvalid(t *testing.T) {
	path := filepath.Join(t.TempDir(), "kubeconfig")
	if err := os.WriteFile(path, []byte("not: [a kubeconfig"), 0o600); err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), scenario, WithKubeconfig(path))
	if res != nil || !IsInvalid(err) {
		t.Errorf("Run: %+v, %v; want an *InvalidError", res, err)
	}
}
