package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/kueue-sim/kueue-sim/scenarios"
	"github.com/kueue-sim/kueue-sim/sim/engine"
	"github.com/kueue-sim/kueue-sim/sim/kueuesetup"
)

// newKueueDefaultsCmd is the command through which each release's binary
// reports its own Kueue's feature gates and defaults, which sim upgrade
// compares (kueuerelease.Changes): one binary links one Kueue, so a
// comparison of two releases asks two binaries. It is hidden, a plumbing
// command.
func newKueueDefaultsCmd() *cobra.Command {
	var file, scenario, output string
	cmd := &cobra.Command{
		Use:   "kueue-defaults [--kueue-config FILE | --scenario FILE] -o json",
		Short: "Print the compiled Kueue's feature gates and the defaults it reads in a Kueue Configuration",
		Long: `sim kueue-defaults prints, as JSON, what the Kueue compiled into this
binary reads in a Kueue Configuration (config.kueue.x-k8s.io/v1beta2):
every Kueue feature gate with its default, stage and lock, whether
waitForPodsReady is in effect and its timeout, the gates the Configuration
sets, and the Configuration completed with Kueue's defaults. Without
--kueue-config or --scenario it reads an empty Configuration.

Exit codes: 0 printed, 2 the Configuration cannot be read or Kueue refuses it.`,
		Hidden: true,
		Args:   cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if output != "json" {
				return withExitCode(2, fmt.Errorf("-o %s: only json is written", output))
			}
			if file != "" && scenario != "" {
				return withExitCode(2, errors.New("--kueue-config and --scenario both name a configuration: give one"))
			}
			name, raw := "the default Kueue configuration", []byte(nil)
			if scenario != "" {
				// The scenario loads here, in the sim of the release that
				// runs it: its cluster.kueue is checked against this
				// release's Configuration, its cluster.kueueReleases bodies
				// for this release laid over it.
				s, err := scenarios.LoadFile(scenario)
				if err != nil {
					return withExitCode(2, err)
				}
				if raw, err = engine.KueueConfig(s); err != nil {
					return withExitCode(2, err)
				}
				name = engine.KueueConfigName(s)
			}
			if file != "" {
				data, err := os.ReadFile(file)
				if err != nil {
					return withExitCode(2, fmt.Errorf("reading Kueue configuration: %w", err))
				}
				name, raw = file, data
			}
			d, err := kueuesetup.Defaults(name, raw)
			if err != nil {
				return withExitCode(2, err)
			}
			enc := json.NewEncoder(cmd.OutOrStdout())
			enc.SetIndent("", "  ")
			return enc.Encode(d)
		},
	}
	cmd.Flags().StringVar(&scenario, "scenario", "", "a scenario whose Kueue configuration, as this release runs it, to read")
	cmd.Flags().StringVar(&file, "kueue-config", "", "Kueue Configuration file (config.kueue.x-k8s.io/v1beta2); none reads an empty one")
	cmd.Flags().StringVarP(&output, "output", "o", "json", "output format: json")
	return cmd
}
