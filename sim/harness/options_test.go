package harness

import (
	"context"
	"errors"
	"io"
	"testing"
	"time"

	"github.com/kueue-sim/kueue-sim/scenarios"
	"github.com/kueue-sim/kueue-sim/sim/engine"
)

// Options meant for the other target are refused before anything starts,
// as bad input naming the option.
func TestOptionsForTheOtherTarget(t *testing.T) {
	for _, c := range []struct {
		opts     []Option
		option   string
		embedded bool
	}{
		{[]Option{WithKwokNodes(true)}, "WithKwokNodes", false},
		{[]Option{WithNamespacePrefix("ks-")}, "WithNamespacePrefix", false},
		{[]Option{WithKeep(true)}, "WithKeep", false},
		{[]Option{WithKeep(true), WithKwokNodes(true)}, "WithKwokNodes", false},
		{[]Option{WithKubeconfig("kubeconfig"), WithSlowKueue(time.Second)}, "WithSlowKueue", true},
	} {
		t.Run(c.option, func(t *testing.T) {
			notStarted := func(o *options) {
				o.start = func(context.Context, *scenarios.Scenario, *engine.VirtualClock, *options) (*target, error) {
					t.Error("the target started")
					return nil, errors.New("started")
				}
			}
			res, err := Run(context.Background(), scenario, append(c.opts, notStarted)...)
			var conflict *ConflictError
			if res != nil || !IsInvalid(err) || !errors.As(err, &conflict) {
				t.Fatalf("Run: %+v, %v; want an *InvalidError holding a *ConflictError", res, err)
			}
			if conflict.Option != c.option || conflict.Embedded != c.embedded {
				t.Errorf("conflict %+v, want option %s, embedded only %v", conflict, c.option, c.embedded)
			}
		})
	}
}

// Options that switch a target's feature off are no conflict.
func TestOptionsOffAreNoConflict(t *testing.T) {
	o := defaultOptions()
	for _, opt := range []Option{WithKwokNodes(false), WithNamespacePrefix(""), WithKeep(false), WithSlowKueue(0), WithKubeconfig("")} {
		opt(&o)
	}
	if err := o.validate(); err != nil {
		t.Errorf("validate: %v", err)
	}
}

// The engine gets the options asked for and no others: a run's decisions
// depend on them alone.
func TestEngineOptions(t *testing.T) {
	for _, c := range []struct {
		name string
		opts []Option
		want int
	}{
		{"defaults: pruning off", nil, 1},
		{"each one", []Option{WithSeed(7), WithPruning(true), WithRealtime(true), WithEventLog(io.Discard), WithDecisionLog(io.Discard), WithProgress(func(engine.Progress) {})}, 6},
		{"nil writers are none", []Option{WithEventLog(nil), WithDecisionLog(nil), WithProgress(nil), WithRealtime(false)}, 1},
	} {
		o := defaultOptions()
		for _, opt := range c.opts {
			opt(&o)
		}
		if got := len(o.engineOptions()); got != c.want {
			t.Errorf("%s: %d engine options, want %d", c.name, got, c.want)
		}
	}
}
