package main

import (
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/kueue-sim/kueue-sim/reports/compare"
	"github.com/kueue-sim/kueue-sim/scenarios"
	"github.com/kueue-sim/kueue-sim/sim/rehearsal"
)

type upgradeFlags struct {
	from, to  string
	reportDir string
	failOn    string
	seed      int64
	// installTools builds the missing sims of --from and --to, and the
	// control-plane binaries, first.
	installTools bool
}

func newUpgradeCmd() *cobra.Command {
	f := &upgradeFlags{}
	cmd := &cobra.Command{
		Use:   "upgrade SCENARIO --from RELEASE --to RELEASE --report DIR [--fail-on FILE]",
		Short: "Rehearse a Kueue upgrade: replay a scenario on two Kueue releases and report what changes",
		Long: `sim upgrade replays SCENARIO on Kueue release --from, then on --to (each in
the sim built around it: this one, or sim-kueue-<release> beside it or in
the binary folder, built by sim tools install kueue@<release> or make
kueue-releases), and writes one report to DIR (upgrade.md,
upgrade.html, upgrade.json, junit.xml; each run's own report in DIR/from
and DIR/to), in this order:
  1. what the new release reads differently in the scenario's Kueue
     configuration: feature gates whose default changed and that the
     configuration does not pin, gates one release lacks, defaults that
     changed (waitForPodsReady), each as the two releases report them;
  2. per workload, every decision that differs, with Kueue's reasons;
  3. the run metrics side by side;
  4. the verdict: with --fail-on (a sim compare thresholds file), exit 1
     when a metric crosses its threshold.
Exit status: 0 done (no threshold crossed), 1 a threshold crossed or a
replay failed, 2 bad input (a scenario that does not load on a release,
a release unsupported or not built, --from equal to --to).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runUpgrade(cmd, f, args[0]) },
	}
	fl := cmd.Flags()
	fl.StringVar(&f.from, "from", "", "the Kueue release the cluster runs, such as v0.17.1")
	fl.StringVar(&f.to, "to", "", "the Kueue release to upgrade to, such as v0.19.2")
	fl.StringVar(&f.reportDir, "report", "", "folder for the upgrade report and both runs' reports")
	fl.StringVar(&f.failOn, "fail-on", "", "thresholds file (kind Thresholds, as sim compare's): exit 1 when a metric crosses one")
	fl.Int64Var(&f.seed, "seed", 0, "random seed of both replays (default: the scenario's)")
	fl.BoolVar(&f.installTools, "install-tools", false,
		"first build what is missing: the sims of --from and --to (sim tools install kueue@<release>) and the control-plane binaries")
	for _, name := range []string{"from", "to", "report"} {
		_ = cmd.MarkFlagRequired(name)
	}
	return cmd
}

func runUpgrade(cmd *cobra.Command, f *upgradeFlags, path string) error {
	// Loaded here for the error a user reads first; each release's sim
	// loads it again with that release's checks.
	if _, err := scenarios.LoadFile(path); err != nil {
		return withExitCode(2, err)
	}
	if f.installTools {
		if err := installUpgradeTools(cmd, f.from, f.to); err != nil {
			return err
		}
	}
	opts := []rehearsal.Option{rehearsal.WithLog(cmd.ErrOrStderr())}
	if f.failOn != "" {
		th, err := compare.LoadThresholds(f.failOn)
		if err != nil {
			return withExitCode(2, err)
		}
		opts = append(opts, rehearsal.WithThresholds(th))
	}
	if cmd.Flags().Changed("seed") {
		opts = append(opts, rehearsal.WithRunArgs("--seed", fmt.Sprint(f.seed)))
	}
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	rep, err := rehearsal.Run(ctx, path, f.from, f.to, f.reportDir, opts...)
	if errors.Is(err, rehearsal.ErrRelease) || errors.Is(err, rehearsal.ErrScenario) {
		return withExitCode(2, err)
	}
	if err != nil {
		return err
	}
	if err := rep.WriteText(cmd.OutOrStdout()); err != nil {
		return err
	}
	if f.failOn != "" && rep.Breached() {
		return fmt.Errorf("%d metric(s) crossed their thresholds in %s", rep.Metrics.Breaches, f.reportDir)
	}
	return nil
}

// installUpgradeTools is sim upgrade's --install-tools: the control-plane
// binaries, then each release's sim, built when missing.
func installUpgradeTools(cmd *cobra.Command, releases ...string) error {
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	err := installControlPlaneTools(ctx, cmd.OutOrStdout())
	stop()
	if err != nil {
		return err
	}
	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("finding this sim: %w", err)
	}
	for _, r := range releases {
		if _, err := findKueueSim(cmd, self, r, true); err != nil {
			return err
		}
	}
	return nil
}
