package harness

import (
	"context"
	"fmt"
	"time"

	"github.com/kueue-sim/kueue-sim/scenarios"
	"github.com/kueue-sim/kueue-sim/sim/cluster"
	"github.com/kueue-sim/kueue-sim/sim/engine"
	"github.com/kueue-sim/kueue-sim/sim/procs"
	"github.com/kueue-sim/kueue-sim/sim/remote"
)

// target is what a run replays on, started: the embedded control plane or
// an existing cluster.
type target struct {
	// scenario is the scenario as the target names it (an existing
	// cluster's prefixes its namespaces): the one to replay.
	scenario *scenarios.Scenario
	engine   engine.Target
	// plane is the ControlPlaneHook's control plane.
	plane *cluster.ControlPlane
	// done reports the control plane's end.
	done <-chan error
	stop func() error
}

// startFunc starts a run's target on clock.
type startFunc func(ctx context.Context, s *scenarios.Scenario, clock *engine.VirtualClock, o *options) (*target, error)

// startTarget starts the embedded control plane, or connects Kueue and the
// platform to the cluster of WithKubeconfig.
func startTarget(ctx context.Context, s *scenarios.Scenario, clock *engine.VirtualClock, o *options) (*target, error) {
	if o.kubeconfig == "" {
		return startEmbedded(ctx, s, clock, o)
	}
	return startExisting(ctx, s, clock, o)
}

func startEmbedded(ctx context.Context, s *scenarios.Scenario, clock *engine.VirtualClock, o *options) (*target, error) {
	began := time.Now()
	copts, err := engine.ClusterOptions(s, clock)
	if err != nil {
		return nil, &InvalidError{Err: err}
	}
	if o.installTools {
		if err := installTools(ctx, o.out); err != nil {
			return nil, err
		}
		began = time.Now()
	}
	root := o.runRoot
	if root == "" {
		root = procs.DefaultRunRoot()
	}
	copts = append(copts, cluster.WithRunRoot(root))
	if o.slowKueue > 0 {
		copts = append(copts, cluster.WithSlowKueue(o.slowKueue))
	}
	cp, err := cluster.Start(ctx, copts...)
	if err != nil {
		return nil, fmt.Errorf("starting the control plane: %w", err)
	}
	fmt.Fprintf(o.out, "control plane up in %s\n", time.Since(began).Round(100*time.Millisecond))
	return &target{scenario: s, engine: engine.EmbeddedTarget(cp), plane: cp, done: cp.Done(), stop: cp.Stop}, nil
}

func startExisting(ctx context.Context, s *scenarios.Scenario, clock *engine.VirtualClock, o *options) (*target, error) {
	began := time.Now()
	cfg, err := cluster.LoadKubeconfig(o.kubeconfig)
	if err != nil {
		return nil, &InvalidError{Err: err}
	}
	var ropts []remote.Option
	if o.kwokNodes {
		ropts = append(ropts, remote.WithKwokNodes())
	}
	if o.prefix != "" {
		ropts = append(ropts, remote.WithPrefix(o.prefix))
	}
	r, err := remote.Start(ctx, cfg, s, clock, ropts...)
	if err != nil {
		return nil, fmt.Errorf("preparing the run on %s: %w", cfg.Host, err)
	}
	fmt.Fprintf(o.out, "connected to %s in %s: run %s, namespaces %s*\n", cfg.Host, time.Since(began).Round(100*time.Millisecond), r.ID, r.Prefix)
	return &target{scenario: r.Scenario, engine: r.Target, plane: r.Plane, done: r.Plane.Done(), stop: func() error {
		if o.keep {
			fmt.Fprintf(o.out, "leaving run %s on the cluster (label %s=%s, namespaces %s*)\n", r.ID, remote.RunLabel, r.ID, r.Prefix)
			return r.Plane.Stop()
		}
		fmt.Fprintf(o.out, "cleaning up run %s on the cluster...\n", r.ID)
		return r.Close(context.Background())
	}}, nil
}
