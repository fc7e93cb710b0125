package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kueue-sim/kueue-sim/importer/kube"
	"github.com/kueue-sim/kueue-sim/scenarios"
)

func newValidateCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "validate SCENARIO...",
		Short: "Check scenario files without running them",
		Long: `sim validate loads each scenario the way sim run does (strict decoding,
defaults, then every check at once) and prints either a summary or every
problem, each with the file, the line, the field path and the fix. It starts
nothing. "-" reads a scenario from standard input. A scenario sim import
wrote with parts inferred rather than read, or incomplete (lists it could not
make), is valid with a note saying so.

Exit codes: 0 every file is valid, 2 one is not (or cannot be read).`,
		Example: `  sim validate scenarios/*.yaml`,
		Args:    cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runValidate(cmd.OutOrStdout(), cmd.InOrStdin(), args)
		},
	}
}

func runValidate(out io.Writer, stdin io.Reader, paths []string) error {
	invalid := 0
	for _, path := range paths {
		s, err := loadScenario(path, stdin)
		if err != nil {
			invalid++
			fmt.Fprintln(out, err)
			continue
		}
		fmt.Fprintf(out, "%s: valid (%s)\n", path, summary(s))
		for _, n := range importNotes(s.Description) {
			fmt.Fprintf(out, "  note: %s\n", n)
		}
	}
	if invalid > 0 {
		return withExitCode(2, fmt.Errorf("%d of %d scenario files are invalid", invalid, len(paths)))
	}
	return nil
}

// importNotes say that sim import wrote the scenario incomplete (lists it
// could not make) or with parts inferred rather than read, as its
// description's marks say.
func importNotes(description string) []string {
	inferred, incomplete := kube.MarkedSentences(description)
	var notes []string
	if incomplete != "" {
		notes = append(notes, "incomplete import: "+incomplete)
	}
	if inferred != "" {
		notes = append(notes, "inferred by sim import: "+inferred)
	}
	return notes
}

func loadScenario(path string, stdin io.Reader) (*scenarios.Scenario, error) {
	if path != "-" {
		s, err := scenarios.LoadFile(path)
		if err != nil && !scenarios.IsInvalid(err) {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		return s, err
	}
	data, err := io.ReadAll(io.LimitReader(stdin, scenarios.MaxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("reading standard input: %w", err)
	}
	return scenarios.Load("<stdin>", "stdin", data)
}

// summary counts what a valid scenario holds: "6 workloads in 1 stream, 1
// team, 1 ClusterQueue, 3 nodes, 4 expectations".
func summary(s *scenarios.Scenario) string {
	workloads, nodes := 0, 0
	for _, w := range s.Workloads {
		workloads += int(*w.Count)
	}
	for _, p := range s.Cluster.NodePools {
		nodes += p.Count
	}
	parts := []string{
		fmt.Sprintf("%s in %s", plural(workloads, "workload"), plural(len(s.Workloads), "stream")),
		plural(len(s.Teams), "team"),
		plural(s.ClusterQueueCount(), "ClusterQueue"),
		plural(nodes, "node"),
		plural(len(s.Expectations), "expectation"),
	}
	if set := s.Loaded.Manifests; set != nil {
		parts = append(parts, fmt.Sprintf("%s from %s", plural(len(set.Objects), "manifest object"), plural(len(set.Files), "file")))
	}
	if len(s.Changes) > 0 {
		parts = append(parts, plural(len(s.Changes), "change"))
	}
	return strings.Join(parts, ", ")
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
