package main

import (
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/kueue-sim/kueue-sim/forecast"
	"github.com/kueue-sim/kueue-sim/sim/procs"
)

type backtestFlags struct {
	targets  int
	runs     int
	parallel int
	seed     int64
	report   string
	output   string
	kueue    string
	install  bool
	runRoot  string
}

func newForecastBacktestCmd() *cobra.Command {
	f := &backtestFlags{}
	cmd := &cobra.Command{
		Use:   "backtest SCENARIO",
		Short: "Say how honest sim forecast is: forecast workloads of a recorded run from the history before them and compare with what happened",
		Long: `sim forecast backtest replays SCENARIO once (seed --seed, default the
scenario's) as the recorded run. It picks --targets workloads, evenly by
arrival among those after the first 20% and before the last 20% of the
arrivals, and for each cuts the run at its arrival: the Workloads that
arrived before, as Kueue showed them then (finished, admitted or pending),
are imported as sim forecast --kubeconfig imports a live cluster (running
workloads run on for what alike finished ones had left), and the workload
is forecast from there with --runs seeds. The forecast never sees what
arrived after the cut.

It prints each target's actual wait beside the forecast's p10, p50 and
p90, then the calibration (the share of actual waits inside p10–p90) and
the median |p50 − actual|.

With --report DIR, DIR/backtest.json holds the result, DIR/actual the
recorded run, and DIR/cut-I/ each cut: its Workload dump (workloads.yaml),
the imported scenario (cluster/), the job file and the forecast's runs.

Exit codes: 0 a backtest was made (whatever it says), 1 a run failed,
2 the scenario or a flag is invalid.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runForecastBacktest(cmd, f, args[0]) },
	}
	fl := cmd.Flags()
	fl.IntVar(&f.targets, "targets", 10, "workloads to forecast")
	fl.IntVar(&f.runs, "runs", 20, "seeds each forecast replays a cut that draws at random with")
	fl.IntVar(&f.parallel, "parallel", 1, "runs to replay at once, each on its own control plane")
	fl.Int64Var(&f.seed, "seed", 0, "the recorded run's seed (default: the scenario's)")
	fl.StringVar(&f.report, "report", "", "folder to write backtest.json, the recorded run and each cut to")
	fl.StringVarP(&f.output, "output", "o", "text", "output format: text or json")
	fl.StringVar(&f.kueue, "kueue", "", "the Kueue release to backtest on (default: the scenario's cluster.kueueVersion, else the one built into this sim)")
	fl.BoolVar(&f.install, "install-tools", false, installToolsUsage)
	fl.StringVar(&f.runRoot, "run-root", procs.DefaultRunRoot(), "folder for the control planes' files; removed at the end")
	return cmd
}

func runForecastBacktest(cmd *cobra.Command, f *backtestFlags, scenario string) error {
	if f.output != "text" && f.output != "json" {
		return withExitCode(2, fmt.Errorf("--output %q: give text or json", f.output))
	}
	if err := execScenarioKueue(cmd, f.kueue, scenario, f.install); err != nil {
		return err
	}
	opts := []forecast.BacktestOption{forecast.WithTargets(f.targets), forecast.WithBacktestRuns(f.runs),
		forecast.WithBacktestParallel(f.parallel)}
	if cmd.Flags().Changed("seed") {
		opts = append(opts, forecast.WithBacktestSeed(f.seed))
	}
	if f.report != "" {
		if err := os.MkdirAll(f.report, 0o755); err != nil {
			return fmt.Errorf("making report folder: %w", err)
		}
		opts = append(opts, forecast.WithBacktestWorkDir(f.report))
	}
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("finding this sim: %w", err)
	}
	res, err := forecast.Backtest(ctx, scenario, simRunReplay(self, f.runRoot, f.install), opts...)
	if err != nil {
		return forecastError(err)
	}
	return writeForecastResult(cmd, f.report, "backtest.json", f.output, res, forecast.WriteBacktestJSON, forecast.WriteBacktestText)
}
