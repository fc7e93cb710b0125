package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/kueue-sim/kueue-sim/scenarios"
	"github.com/kueue-sim/kueue-sim/sim/harness"
	"github.com/kueue-sim/kueue-sim/sim/procs"
)

type runFlags struct {
	reportDir string
	seed      int64
	prune     bool
	realtime  bool
	runRoot   string
	progress  string
	kueue     string
	targetFlags
	runReportFlags
}

func newRunCmd() *cobra.Command {
	f := &runFlags{}
	cmd := &cobra.Command{
		Use:   "run SCENARIO",
		Short: "Replay a scenario on the embedded control plane and check its expectations",
		Long: `sim run builds the cluster a scenario describes on the embedded control plane
(real kube-apiserver, etcd, kube-scheduler, kube-controller-manager and Kueue),
replays its workload streams on a virtual clock through the real admission
path, and checks its expectations.

Exit codes: 0 every expectation held, 1 one failed (or the run failed),
2 the scenario is invalid.

With --report DIR it writes DIR/events.jsonl (every observation, simulated
and wall time), DIR/decisions.jsonl (admissions, preemptions, evictions,
placements and webhook refusals, simulated time only: the same scenario and
seed give the same file), DIR/expectations.json and the reports
(report.json, report.md, report.html and CSV series; see sim report).
With --junit FILE it writes the expectations as JUnit XML.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runRun(cmd, f, args[0]) },
	}
	fl := cmd.Flags()
	fl.StringVar(&f.reportDir, "report", "", "folder to write the run's logs and reports to")
	fl.Int64Var(&f.seed, "seed", 0, "seed for arrivals and durations (default: the scenario's)")
	fl.BoolVar(&f.realtime, "realtime", false, "pace the replay to the wall clock, one simulated second per wall second at most (demos; checking that decisions do not depend on the virtual clock)")
	fl.BoolVar(&f.prune, "prune-finished", false, "delete each finished workload's objects as the run goes, so the control plane holds only live work (less memory on large runs; Kueue sees the deletions, so decisions may differ from an unpruned run's)")
	addRelaxedFlag(fl, &f.prune)
	fl.StringVar(&f.runRoot, "run-root", procs.DefaultRunRoot(), "folder for the control plane's files; removed at the end")
	addTargetFlags(fl, &f.targetFlags)
	addRunReportFlags(fl, &f.runReportFlags)
	fl.StringVar(&f.kueue, "kueue", "", "the Kueue release to replay on, such as v0.19.2 or v0.19 (default: the scenario's cluster.kueueVersion, else the one built into this sim; others run in sim-kueue-<release> beside it or in the binary folder, built by sim tools install kueue@RELEASE, --install-tools or make kueue-releases)")
	fl.StringVar(&f.progress, "progress", "auto", "progress display: auto (a bar on a terminal, log lines otherwise), bar, log or none")
	return cmd
}

func runRun(cmd *cobra.Command, f *runFlags, path string) error {
	if err := execScenarioKueue(cmd, f.kueue, path, f.installTools); err != nil {
		return err
	}
	out := cmd.OutOrStdout()
	s, err := scenarios.LoadFile(path)
	if err != nil {
		return withExitCode(2, err)
	}
	seed := *s.Seed
	if cmd.Flags().Changed("seed") {
		seed = f.seed
	}
	mode := ""
	if f.realtime {
		mode += ", real time"
	}
	if f.prune {
		mode += ", pruning finished workloads"
	}
	fmt.Fprintf(out, "scenario %s, seed %d%s\n", s.Name, seed, mode)

	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	var logs []io.Closer
	defer func() {
		for _, c := range logs {
			c.Close()
		}
	}()
	prog := newProgress(cmd.ErrOrStderr(), f.progress)
	opts := append(f.targetFlags.options(),
		harness.WithSeed(seed), harness.WithPruning(f.prune), harness.WithRealtime(f.realtime),
		harness.WithProgress(prog.update), harness.WithOutput(prog.above(out)), harness.WithRunRoot(f.runRoot))
	if f.reportDir != "" {
		if err := os.MkdirAll(f.reportDir, 0o755); err != nil {
			return fmt.Errorf("making report folder: %w", err)
		}
		for name, opt := range map[string]func(io.Writer) harness.Option{
			"events.jsonl": harness.WithEventLog, "decisions.jsonl": harness.WithDecisionLog,
		} {
			fh, err := os.Create(filepath.Join(f.reportDir, name))
			if err != nil {
				return fmt.Errorf("opening %s: %w", name, err)
			}
			logs = append(logs, fh)
			opts = append(opts, opt(fh))
		}
	}

	res, err := harness.Run(ctx, s, opts...)
	prog.done()
	if res != nil && res.StopErr != nil {
		defer fmt.Fprintln(cmd.ErrOrStderr(), "stopping:", res.StopErr)
	}
	if err != nil {
		var died *harness.TargetFailedError
		if errors.As(err, &died) {
			fmt.Fprintln(cmd.ErrOrStderr(), died)
		}
		if res != nil && errors.Is(err, context.Canceled) {
			return fmt.Errorf("run interrupted at simulated %s; logs so far are in %q", res.Simulated, f.reportDir)
		}
		return targetError(err)
	}
	fmt.Fprintf(out, "simulated %s in %s wall (%d steps, %s settling); %d workloads\n",
		res.Run.End, res.Wall.Round(100*time.Millisecond), res.Steps, res.Settling.Round(100*time.Millisecond), len(res.Run.Workloads))
	if v, _ := cmd.Flags().GetInt("verbosity"); v >= 2 {
		fmt.Fprintf(cmd.ErrOrStderr(), "settle polls that found the control plane busy, by reason: %v\n", res.SettleWaits)
	}
	for _, w := range res.Run.Warnings {
		fmt.Fprintf(out, "warning at %s: %s\n", w.T.D(), w.Message)
	}
	failed := 0
	for _, e := range res.Expectations {
		mark := "PASS"
		if !e.Passed {
			mark, failed = "FAIL", failed+1
		}
		fmt.Fprintf(out, "%s  %-28s %s\n", mark, e.Name, e.Message)
	}
	if f.reportDir != "" {
		data, _ := json.MarshalIndent(res.Expectations, "", "  ")
		if err := os.WriteFile(filepath.Join(f.reportDir, "expectations.json"), append(data, '\n'), 0o644); err != nil {
			return fmt.Errorf("writing expectations.json: %w", err)
		}
		fmt.Fprintf(out, "logs in %s\n", f.reportDir)
	}
	if err := writeRunReports(out, f.reportDir, f.runReportFlags, res.Result); err != nil {
		return err
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d expectations failed", failed, len(res.Expectations))
	}
	return nil
}
