package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kueue-sim/kueue-sim/reports"
	"github.com/kueue-sim/kueue-sim/reports/compare"
)

type compareFlags struct {
	thresholds string
	golden     bool
	all        bool
	markdown   bool
}

func newCompareCmd() *cobra.Command {
	f := &compareFlags{}
	cmd := &cobra.Command{
		Use:   "compare BASELINE NEW [--thresholds FILE]",
		Short: "Gate a change: compare a new run's metrics (or decision trace) with a baseline's",
		Long: `sim compare compares two runs' reports, each given as a report folder (sim
run --report DIR), a report.json or an events.jsonl, metric by metric, and
prints what moved. Each metric is judged by the first rule that matches it
in the thresholds file, else by a built-in rule:
  maxRegression  largest change in the worse direction, as a fraction of
                 the baseline (0.1 = 10%)
  slack          a change, in the metric's unit, that always passes
  min, max       bounds on the new value
  ignore         leave the metric out
A thresholds file (YAML, apiVersion kueue-sim/v1alpha1, kind Thresholds):
  rules:
  - metric: utilization
    labels: {flavor: a100}
    maxRegression: 0.05
    min: 0.8
    why: the A100s were bought for training
Set builtinRules: false to judge only by the file's rules.
Built-in rules:
` + builtinRulesHelp() + `Metrics (unit; direction: meaning):
` + metricsHelp() + `
--golden compares the two runs' decisions.jsonl byte for byte instead:
the same scenario and seed give the same trace, so any
difference is a change in what Kueue decided.
Exit status: 0 no breach, 1 a breach (or traces differ), 2 unreadable input.`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error { return runCompare(cmd, f, args[0], args[1]) },
	}
	fl := cmd.Flags()
	fl.StringVar(&f.thresholds, "thresholds", "", "YAML file of rules (kind Thresholds)")
	fl.BoolVar(&f.golden, "golden", false, "compare the decision traces (decisions.jsonl) exactly")
	fl.BoolVar(&f.all, "all", false, "list unchanged metrics too")
	fl.BoolVar(&f.markdown, "markdown", false, "write the table as Markdown (for a pull-request comment)")
	return cmd
}

func runCompare(cmd *cobra.Command, f *compareFlags, basePath, newPath string) error {
	out := cmd.OutOrStdout()
	if f.golden {
		g, err := compare.Golden(basePath, newPath)
		if err != nil {
			return withExitCode(2, err)
		}
		if err := g.Write(out); err != nil {
			return err
		}
		if !g.Identical {
			return fmt.Errorf("decision traces differ")
		}
		return nil
	}
	var th *compare.Thresholds
	if f.thresholds != "" {
		var err error
		if th, err = compare.LoadThresholds(f.thresholds); err != nil {
			return withExitCode(2, err)
		}
	}
	base, err := reports.Load(basePath)
	if err != nil {
		return withExitCode(2, fmt.Errorf("reading the baseline: %w", err))
	}
	next, err := reports.Load(newPath)
	if err != nil {
		return withExitCode(2, fmt.Errorf("reading the new run: %w", err))
	}
	res := compare.Compare(base, next, th)
	if err := res.WriteTable(out, compare.TableOptions{All: f.all, Markdown: f.markdown}); err != nil {
		return err
	}
	if !res.Passed() {
		return fmt.Errorf("%d metric(s) breached their thresholds", res.Breaches)
	}
	return nil
}

func builtinRulesHelp() string {
	s := ""
	for _, r := range compare.BuiltinRules {
		s += fmt.Sprintf("  %-20s maxRegression %g", r.Metric, *r.MaxRegression)
		if r.Slack != nil {
			s += fmt.Sprintf(", slack %g", *r.Slack)
		}
		s += "\n"
	}
	return s
}

func metricsHelp() string {
	s := ""
	better := map[int]string{+1: "higher is better", -1: "lower is better", 0: "neither way is better"}
	for _, k := range reports.MetricKinds {
		name := k.Name
		if len(k.Labels) > 0 {
			name += "{" + strings.Join(k.Labels, ",") + "}"
		}
		s += fmt.Sprintf("  %-42s %s; %s: %s\n", name, k.Unit, better[k.Better], k.Help)
	}
	return s
}
