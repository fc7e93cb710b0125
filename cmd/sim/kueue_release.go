package main

import (
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/kueue-sim/kueue-sim/kueuerelease"
	"github.com/kueue-sim/kueue-sim/scenarios"
	"github.com/kueue-sim/kueue-sim/sim/assets"
)

// execSim replaces this process with another sim (tests replace it).
var execSim = syscall.Exec

// execKueueRelease hands the command over to the sim that runs Kueue
// release want, when that is not this one: a process holds one Kueue, so
// another release is another binary (assets.KueueRelease), beside this sim
// or in the binary folder. That sim gets the same arguments and
// environment, and since it runs want, it goes on where this one returns
// nil. When that sim is missing and install is set (--install-tools), it
// is built into the binary folder first (sim tools install kueue@<release>),
// its output to cmd's. An unsupported or missing release exits 2.
func execKueueRelease(cmd *cobra.Command, want string, install bool) error {
	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("finding this sim: %w", err)
	}
	other, err := findKueueSim(cmd, self, want, install)
	if err != nil {
		return err
	}
	if other == "" {
		return nil
	}
	if err := execSim(other, append([]string{other}, os.Args[1:]...), os.Environ()); err != nil {
		return fmt.Errorf("running %s: %w", other, err)
	}
	return nil
}

// findKueueSim is assets.KueueRelease's sim of release want ("" for this
// one), built into the binary folder first when it is missing and install
// is set. An unsupported or missing release exits 2.
func findKueueSim(cmd *cobra.Command, self, want string, install bool) (string, error) {
	binDir, _ := assets.DefaultBinDir() // none: beside this sim only
	other, err := assets.KueueRelease(want, kueuerelease.Compiled(), self, binDir)
	if install && errors.Is(err, assets.ErrKueueSimMissing) {
		b, berr := kueueBuilder(cmd.OutOrStdout(), "")
		if berr != nil {
			return "", berr
		}
		ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		s, berr := b.Install(ctx, want)
		if berr != nil {
			return "", kueueBuildError(berr)
		}
		return s.Path, nil
	}
	if err != nil {
		return "", withExitCode(2, err)
	}
	return other, nil
}

// execScenarioKueue hands the command over to the sim of release asked
// (--kueue), else of the release scenario pins (cluster.kueueVersion), when
// that is not this one (execKueueRelease); it returns nil to go on here.
func execScenarioKueue(cmd *cobra.Command, asked, scenario string, install bool) error {
	if asked != "" {
		return execKueueRelease(cmd, asked, install)
	}
	if pinned := scenarios.PinnedKueue(scenario); pinned != "" {
		if err := execKueueRelease(cmd, pinned, install); err != nil {
			return fmt.Errorf("%s: cluster.kueueVersion %s: %w (or change cluster.kueueVersion)", scenario, pinned, err)
		}
	}
	return nil
}
