package main

import (
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/kueue-sim/kueue-sim/reports/plan"
)

type planFlags struct {
	vary     []string
	parallel int
	shard    string
	out      string
	seed     int64
	prune    bool
}

func newPlanCmd() *cobra.Command {
	f := &planFlags{}
	cmd := &cobra.Command{
		Use:   "plan SCENARIO --vary PATH=V1,V2,... [--vary ...]",
		Short: "Capacity planning: run a scenario for every combination of values and find the smallest that meets its expectations",
		Long: `sim plan runs the scenario once per combination of the --vary values, each
as its own sim run process (one Kueue per process), --parallel at a time, and
reports the smallest configuration that meets every expectation: the least
capacity of the scenario's GPU resource, then the smallest values in --vary
order. It writes OUT/plan.json, OUT/plan.md (the table), OUT/plan.svg (p90
queue wait against capacity) and OUT/runs/NNNN/ (each run's scenario, log,
reports and junit.xml).

PATH names a scenario field by its YAML names joined by dots; [x] picks the
element of a list named x (or at position x from 0) or a map's entry x:
  cluster.nodePools[a100].count
  queues.clusterQueues[team-a].resourceGroups[0].flavors[a100].resources[nvidia.com/gpu].nominal
  queues.clusterQueues[team-c].fairSharingWeight
  workloads[train].count
Several PATH=VALUES joined by ";" in one --vary move together (the i-th
value of each), e.g. nodes and the quota that matches them:
  --vary 'cluster.nodePools[a100].count=1,2,3;queues.clusterQueues[research].resourceGroups[0].flavors[a100].resources[nvidia.com/gpu].nominal=4,8,12'

--shard i/n runs only the combinations whose number is i modulo n (e.g.
one pod of a Kubernetes Indexed Job each: --shard $JOB_COMPLETION_INDEX/N);
sim plan merge joins the shards' plan.json files.

Exit codes: 0 a configuration met every expectation (for a shard: every run
completed), 1 none did (or a run failed to complete), 2 invalid input.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runPlan(cmd, f, args[0]) },
	}
	fl := cmd.Flags()
	fl.StringArrayVar(&f.vary, "vary", nil, "PATH=V1,V2,... to vary (repeat for more dimensions; ; links paths)")
	fl.IntVar(&f.parallel, "parallel", 1, "runs at once (each starts its own control plane: about 1 core and 1 GiB each)")
	fl.StringVar(&f.shard, "shard", "", "run only part i of n of the sweep (i/n, 0 ≤ i < n)")
	fl.StringVar(&f.out, "out", "plan", "folder for plan.json, plan.md, plan.svg and the runs")
	fl.Int64Var(&f.seed, "seed", 0, "seed for every run (default: the scenario's)")
	fl.BoolVar(&f.prune, "prune-finished", false, "run each point with sim run --prune-finished (deletes finished workloads as it goes: less memory on large runs)")
	addRelaxedFlag(fl, &f.prune)
	cmd.AddCommand(newPlanMergeCmd())
	return cmd
}

func runPlan(cmd *cobra.Command, f *planFlags, scenario string) error {
	if len(f.vary) == 0 {
		return withExitCode(2, errors.New("nothing to vary: give at least one --vary PATH=V1,V2,..."))
	}
	var varies []plan.Vary
	for _, raw := range f.vary {
		v, err := plan.ParseVary(raw)
		if err != nil {
			return withExitCode(2, err)
		}
		varies = append(varies, v)
	}
	o := plan.Options{Out: f.out, Parallel: f.parallel, Log: cmd.ErrOrStderr()}
	if f.shard != "" {
		s, err := plan.ParseShard(f.shard)
		if err != nil {
			return withExitCode(2, err)
		}
		o.Shard = s
	}
	if cmd.Flags().Changed("seed") {
		o.RunArgs = append(o.RunArgs, "--seed", fmt.Sprint(f.seed))
	}
	if f.prune {
		o.RunArgs = append(o.RunArgs, "--prune-finished")
	}
	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("finding the sim binary to run: %w", err)
	}
	o.Sim = self
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	p, err := plan.Run(ctx, scenario, varies, o)
	if p == nil {
		return withExitCode(2, err)
	}
	if werr := printPlan(cmd, p); werr != nil {
		return werr
	}
	if err != nil {
		return err
	}
	return planVerdict(p, o.Shard.N > 1)
}

func newPlanMergeCmd() *cobra.Command {
	var out string
	cmd := &cobra.Command{
		Use:   "merge PLAN... --out DIR",
		Short: "Join the plan.json files of a sweep's shards and find the smallest configuration",
		Long: `sim plan merge reads the plan.json files (or folders holding one) that the
shards of one sweep wrote (sim plan --shard i/n), checks that they ran the
same scenario file and --vary values and that no combination ran twice, and
writes the merged plan.json, plan.md and plan.svg to --out. Combinations no
shard ran are listed as missing. The runs' folders stay with each shard.
Exit codes: 0 a configuration met every expectation, 1 none did, 2 the
plans do not belong together or cannot be read.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var plans []*plan.Plan
			for _, a := range args {
				p, err := plan.Read(a)
				if err != nil {
					return withExitCode(2, err)
				}
				plans = append(plans, p)
			}
			merged, err := plan.Merge(plans)
			if err != nil {
				return withExitCode(2, err)
			}
			if err := merged.WriteFiles(out); err != nil {
				return err
			}
			if err := printPlan(cmd, merged); err != nil {
				return err
			}
			return planVerdict(merged, false)
		},
	}
	cmd.Flags().StringVar(&out, "out", "plan", "folder for the merged plan.json, plan.md and plan.svg")
	return cmd
}

func printPlan(cmd *cobra.Command, p *plan.Plan) error {
	out := cmd.OutOrStdout()
	if err := p.WriteTable(out, false); err != nil {
		return err
	}
	_, err := fmt.Fprintln(out, p.Summary())
	return err
}

// planVerdict is the exit status: a shard succeeds when every run
// completed; a whole sweep when a configuration passed.
func planVerdict(p *plan.Plan, shard bool) error {
	for _, o := range p.Outcomes {
		if o.Error != "" {
			return fmt.Errorf("run %d did not complete: %s", o.Index, o.Error)
		}
	}
	if !shard && p.Best == nil {
		return errors.New("no configuration met every expectation")
	}
	return nil
}
