package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/spf13/pflag"

	"github.com/kueue-sim/kueue-sim/scenarios"
	"github.com/kueue-sim/kueue-sim/sim/cluster"
	"github.com/kueue-sim/kueue-sim/sim/engine"
	"github.com/kueue-sim/kueue-sim/sim/remote"
)

// targetFlags choose where sim run replays a scenario.
type targetFlags struct {
	kubeconfig   string
	kwokNodes    bool
	prefix       string
	keep         bool
	installTools bool
	slowKueue    time.Duration
}

func addTargetFlags(fl *pflag.FlagSet, f *targetFlags) {
	fl.StringVar(&f.kubeconfig, "kubeconfig", "", "replay on the existing cluster of this kubeconfig instead of the embedded control plane (Kueue and the platform run in sim against it)")
	fl.BoolVar(&f.kwokNodes, "kwok-nodes", false, "with --kubeconfig: make the scenario's node pools as KWOK fake nodes (a cluster made by kwokctl with sim/kwok's config), deleted afterwards")
	fl.StringVar(&f.prefix, "namespace-prefix", "", `with --kubeconfig: prefix of the run's namespaces (default "ks-<run id>-")`)
	fl.BoolVar(&f.keep, "keep", false, "with --kubeconfig: leave what the run made on the cluster (namespaces, workloads, queues, KWOK nodes), e.g. for sim import cluster; Kueue and the platform still stop")
	fl.BoolVar(&f.installTools, "install-tools", false, installToolsUsage)
	fl.DurationVar(&f.slowKueue, "slow-kueue", 0, "slow each reconcile of Kueue's Workload, LocalQueue and job-integration reconcilers by this much wall time, as on a far busier machine: the decisions must not change, only take longer (a check of the replay's determinism; embedded control plane only)")
}

// runTarget is what a run replays on: the embedded control plane or an
// existing cluster, with the scenario as the target names it.
type runTarget struct {
	scenario *scenarios.Scenario
	target   engine.Target
	done     <-chan error
	stop     func() error
}

// startTarget starts the embedded control plane, or connects Kueue and the
// platform to the cluster of --kubeconfig.
func startTarget(ctx context.Context, out io.Writer, f *targetFlags, runRoot string, s *scenarios.Scenario, clock *engine.VirtualClock) (*runTarget, error) {
	began := time.Now()
	if f.kubeconfig == "" {
		for _, fl := range []struct {
			name string
			set  bool
		}{{"--kwok-nodes", f.kwokNodes}, {"--namespace-prefix", f.prefix != ""}, {"--keep", f.keep}} {
			if name := fl.name; fl.set {
				return nil, withExitCode(2, fmt.Errorf("%s works only with --kubeconfig (a replay on an existing cluster): add --kubeconfig PATH or drop %s", name, name))
			}
		}
		copts, err := engine.ClusterOptions(s, clock)
		if err != nil {
			return nil, withExitCode(2, err)
		}
		if f.installTools {
			if err := installControlPlaneTools(ctx, out); err != nil {
				return nil, err
			}
			began = time.Now()
		}
		copts = append(copts, cluster.WithRunRoot(runRoot))
		if f.slowKueue > 0 {
			copts = append(copts, cluster.WithSlowKueue(f.slowKueue))
		}
		cp, err := cluster.Start(ctx, copts...)
		if err != nil {
			return nil, fmt.Errorf("starting the control plane: %w", err)
		}
		fmt.Fprintf(out, "control plane up in %s\n", time.Since(began).Round(100*time.Millisecond))
		return &runTarget{scenario: s, target: engine.EmbeddedTarget(cp), done: cp.Done(), stop: cp.Stop}, nil
	}
	if f.slowKueue > 0 {
		return nil, withExitCode(2, fmt.Errorf("--slow-kueue works only on the embedded control plane: drop --kubeconfig or --slow-kueue"))
	}
	cfg, err := cluster.LoadKubeconfig(f.kubeconfig)
	if err != nil {
		return nil, withExitCode(2, err)
	}
	var ropts []remote.Option
	if f.kwokNodes {
		ropts = append(ropts, remote.WithKwokNodes())
	}
	if f.prefix != "" {
		ropts = append(ropts, remote.WithPrefix(f.prefix))
	}
	r, err := remote.Start(ctx, cfg, s, clock, ropts...)
	if err != nil {
		return nil, fmt.Errorf("preparing the run on %s: %w", cfg.Host, err)
	}
	fmt.Fprintf(out, "connected to %s in %s: run %s, namespaces %s*\n", cfg.Host, time.Since(began).Round(100*time.Millisecond), r.ID, r.Prefix)
	return &runTarget{scenario: r.Scenario, target: r.Target, done: r.Plane.Done(), stop: func() error {
		if f.keep {
			fmt.Fprintf(out, "leaving run %s on the cluster (label %s=%s, namespaces %s*)\n", r.ID, remote.RunLabel, r.ID, r.Prefix)
			return r.Plane.Stop()
		}
		fmt.Fprintf(out, "cleaning up run %s on the cluster...\n", r.ID)
		return r.Close(context.Background())
	}}, nil
}
