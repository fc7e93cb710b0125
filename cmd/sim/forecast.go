package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/kueue-sim/kueue-sim/forecast"
	"github.com/kueue-sim/kueue-sim/importer/kube"
	"github.com/kueue-sim/kueue-sim/scenarios"
	"github.com/kueue-sim/kueue-sim/sim/harness"
	"github.com/kueue-sim/kueue-sim/sim/procs"
	"github.com/kueue-sim/kueue-sim/sim/simrun"
)

type forecastFlags struct {
	scenario  string
	at        time.Duration
	duration  time.Duration
	horizon   time.Duration
	runs      int
	parallel  int
	seed      int64
	namespace string
	queue     string
	tries     []string
	output    string
	report    string
	kueue     string
	install   bool
	runRoot   string

	kubeconfig, context string
	since               time.Duration
	defaultDuration     time.Duration
	history             bool
	files               []string
}

func newForecastCmd() *cobra.Command {
	f := &forecastFlags{}
	cmd := &cobra.Command{
		Use:   "forecast (JOB.yaml... | -f JOB.yaml...) (--scenario SCENARIO | --kubeconfig PATH)",
		Short: "Say when and where Kueue admits jobs submitted into a scenario, and what a smaller request changes",
		Long: `sim forecast submits the job in JOB.yaml (a Job, PyTorchJob, RayJob,
RayCluster, Notebook, InferenceService or raw Workload, as a templated stream
takes it) into a scenario at simulated time --at, replays the scenario with
it on the real Kueue, and says whether Kueue admits it at once, how long it
waits (p50 and p90 over the runs), on which ClusterQueue and flavors, which
workloads' ends let it in, and whom Kueue preempts for it.

Several files, or a file of several YAML documents, forecast several jobs:
all are submitted at --at, in the order given (each file's in the order
written), and each is forecast. - reads the jobs from stdin.

With --kubeconfig (or --context) instead of --scenario, kueue-sim reads
the cluster now, with list calls only, as sim import cluster does: its
queues, nodes and the Workloads of the last --since. The job is submitted
at the cluster's present (--at defaults to it). Workloads running now run on
for what one of the alike workloads that ran longer had left, drawn per run,
or for --default-duration without such history; pending ones wait in their
queues and run for one of their alike workloads' run times, drawn per run.
The replay starts from the present: the running workloads are admitted
again first, in the order Kueue admitted them, then the pending ones arrive
in the order they were created; --history replays the finished ones of the
last --since before them (Kueue's admission fair sharing weighs them).
With --report DIR, DIR/cluster holds the imported scenario.

The scenario's own streams replay as written, before and after --at. A
scenario that draws at random (Poisson arrivals, exponential or lognormal
durations) is replayed --runs times, one seed each; one that draws nothing
at random is replayed once, since every seed gives the same run.

--try RESOURCE=Q1,Q2 forecasts the jobs with each container that asks for
RESOURCE asking for Q1, then Q2, instead; --try queue=LQ1,LQ2 sends every job
to another LocalQueue. The alternatives print side by side.

With --report DIR, DIR/forecast.json holds the forecast, and
DIR/runs/A-R/ each run's scenario.yaml and events.jsonl: ` + "`sim run`" + ` of that
scenario.yaml replays the same run.

Exit codes: 0 a forecast was made (whatever it says), 1 a run failed,
2 a job, the scenario or a flag is invalid.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			jobs := append(append([]string(nil), f.files...), args...)
			if len(jobs) == 0 {
				return withExitCode(2, errors.New("give the job to forecast: a file of it (JOB.yaml or -f JOB.yaml), or - (or -f -) to read it from stdin"))
			}
			return runForecast(cmd, f, jobs)
		},
	}
	fl := cmd.Flags()
	fl.StringArrayVarP(&f.files, "filename", "f", nil, "a file of the job(s) to forecast, as kubectl apply -f takes it; - reads stdin; repeatable, before the files given as arguments")
	fl.StringVar(&f.scenario, "scenario", "", "the scenario to submit the job into (required)")
	fl.DurationVar(&f.at, "at", 0, "simulated time of the scenario at which the job is submitted")
	fl.DurationVar(&f.duration, "duration", time.Hour, "how long the job runs once its pods run")
	fl.DurationVar(&f.horizon, "horizon", 7*24*time.Hour, "how far past --at to look; a job not admitted by then waits beyond the horizon")
	fl.IntVar(&f.runs, "runs", 20, "seeds to replay a scenario that draws at random with")
	fl.IntVar(&f.parallel, "parallel", 1, "runs to replay at once, each on its own control plane")
	fl.Int64Var(&f.seed, "seed", 0, "the first run's seed (default: the scenario's); run i has seed+i")
	fl.StringVar(&f.namespace, "namespace", "", "namespace to submit a job that names none to (default: the one namespace with its LocalQueue)")
	fl.StringVar(&f.queue, "queue", "", "LocalQueue to submit the job to (default: its "+forecast.QueueLabel+" label)")
	fl.StringArrayVar(&f.tries, "try", nil, "alternative to forecast too: RESOURCE=Q1,Q2 (per container asking for it) or queue=LQ1,LQ2; repeatable")
	fl.StringVarP(&f.output, "output", "o", "text", "output format: text or json")
	fl.StringVar(&f.report, "report", "", "folder to write forecast.json and each run's scenario and event log to")
	fl.StringVar(&f.kueue, "kueue", "", "the Kueue release to forecast on (default: the scenario's cluster.kueueVersion, else the one built into this sim)")
	fl.BoolVar(&f.install, "install-tools", false, installToolsUsage)
	fl.StringVar(&f.runRoot, "run-root", procs.DefaultRunRoot(), "folder for the control planes' files; removed at the end")
	fl.StringVar(&f.kubeconfig, "kubeconfig", "", "forecast on the cluster of this kubeconfig, read now (list calls only), instead of --scenario")
	fl.StringVar(&f.context, "context", "", "the kubeconfig context to read (default: its current one)")
	fl.DurationVar(&f.since, "since", kube.DefaultSince, "with --kubeconfig: how far back the cluster's Workloads make its history")
	fl.DurationVar(&f.defaultDuration, "default-duration", kube.DefaultDuration, "with --kubeconfig: how much longer a running workload runs when no alike workload ran longer")
	fl.BoolVar(&f.history, "history", false, "with --kubeconfig: replay the workloads that finished in the last --since too, not only what runs and waits now (for Kueue's admission fair sharing, which weighs past usage)")
	cmd.AddCommand(newForecastBacktestCmd())
	return cmd
}

// simRunReplay replays each run as a `sim run` process of self of its
// own, since a process runs one Kueue, its control plane's files under
// runRoot.
func simRunReplay(self, runRoot string, install bool) forecast.ReplayFunc {
	return func(ctx context.Context, scenario string, seed int64, dir string) error {
		args := []string{"run", scenario, "--seed", strconv.FormatInt(seed, 10), "--report", dir,
			"--progress", "none", "--run-root", runRoot}
		if install {
			args = append(args, "--install-tools")
		}
		res, err := simrun.Run(ctx, self, filepath.Join(dir, "run.log"), args...)
		switch {
		case err != nil:
			return err
		case res.ExitCode == 1:
			return nil // the scenario's own expectations failed: the run is whole
		case res.ExitCode != 0:
			return fmt.Errorf("sim run exited %d: see %s", res.ExitCode, res.Log)
		}
		return nil
	}
}

func runForecast(cmd *cobra.Command, f *forecastFlags, jobs []string) error {
	live := f.kubeconfig != "" || f.context != ""
	switch {
	case live && f.scenario != "":
		return withExitCode(2, errors.New("--scenario and --kubeconfig: give one, the scenario or the cluster to forecast on"))
	case !live && f.scenario == "":
		return withExitCode(2, errors.New("--scenario: give the scenario to submit the job into, or --kubeconfig for a cluster"))
	case f.output != "text" && f.output != "json":
		return withExitCode(2, fmt.Errorf("--output %q: give text or json", f.output))
	}
	if live {
		cleanup, err := importForForecast(cmd, f)
		defer cleanup()
		if err != nil {
			return err
		}
	}
	if err := execScenarioKueue(cmd, f.kueue, f.scenario, f.install); err != nil {
		return err
	}
	tries, err := forecast.ParseTries(f.tries)
	if err != nil {
		return withExitCode(2, err)
	}
	opts := []forecast.Option{forecast.WithDuration(f.duration), forecast.WithHorizon(f.horizon),
		forecast.WithRuns(f.runs), forecast.WithParallel(f.parallel), forecast.WithNamespace(f.namespace),
		forecast.WithQueue(f.queue), forecast.WithTries(tries...)}
	if cmd.Flags().Changed("seed") {
		opts = append(opts, forecast.WithSeed(f.seed))
	}
	if f.report != "" {
		if err := os.MkdirAll(f.report, 0o755); err != nil {
			return fmt.Errorf("making report folder: %w", err)
		}
		opts = append(opts, forecast.WithWorkDir(f.report))
	}
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("finding this sim: %w", err)
	}
	fc, err := forecast.Run(ctx, forecast.Request{Jobs: jobs, Stdin: cmd.InOrStdin(), Scenario: f.scenario, At: f.at}, simRunReplay(self, f.runRoot, f.install), opts...)
	if err != nil {
		return forecastError(err)
	}
	return writeForecastResult(cmd, f.report, "forecast.json", f.output, fc, forecast.WriteJSON, forecast.WriteText)
}

// forecastError is a forecast's or a backtest's failure, bad input (exit
// 2) told apart.
func forecastError(err error) error {
	var inputErr *forecast.InputError
	if errors.As(err, &inputErr) || scenarios.IsInvalid(err) || harness.IsInvalid(err) {
		return withExitCode(2, err)
	}
	return err
}

// writeForecastResult writes v as JSON to report/name when report is
// set, and to the command's output as output (text or json) asks.
func writeForecastResult[T any](cmd *cobra.Command, report, name, output string, v T,
	writeJSON, writeText func(io.Writer, T) error) error {
	if report != "" {
		fh, err := os.Create(filepath.Join(report, name))
		if err != nil {
			return err
		}
		defer fh.Close()
		if err := writeJSON(fh, v); err != nil {
			return fmt.Errorf("writing %s: %w", name, err)
		}
	}
	if output == "json" {
		return writeJSON(cmd.OutOrStdout(), v)
	}
	return writeText(cmd.OutOrStdout(), v)
}
