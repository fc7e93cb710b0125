package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/kueue-sim/kueue-sim/reports"
)

type reportFlags struct {
	out string
}

func newReportCmd() *cobra.Command {
	f := &reportFlags{}
	cmd := &cobra.Command{
		Use:   "report EVENTS --out DIR",
		Short: "Rebuild a run's reports from its saved event log",
		Long: `sim report reads a run's events.jsonl (or a report folder holding one) and
writes the same reports sim run --report writes: report.json (schema
version ` + fmt.Sprint(reports.SchemaVersion) + `), report.md (a summary for a pull-request comment),
report.html (one self-contained page with SVG charts) and CSV time series
(utilization.csv, clusterqueues.csv, teams.csv, pending.csv, waits.csv).
An expectations.json beside the event log is included.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runReport(cmd, f, args[0]) },
	}
	cmd.Flags().StringVar(&f.out, "out", "", "folder to write the reports to (default: the event log's folder)")
	return cmd
}

func runReport(cmd *cobra.Command, f *reportFlags, path string) error {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		path = filepath.Join(path, reports.EventsFile)
	}
	run, results, err := reports.LoadEvents(path)
	if err != nil {
		return withExitCode(2, err)
	}
	out := f.out
	if out == "" {
		out = filepath.Dir(path)
	}
	r, err := reports.WriteAll(out, run, results)
	if err != nil {
		return err
	}
	fmt.Fprintf(cmd.OutOrStdout(), "report of %s (%d workloads, %s simulated) in %s\n",
		r.Scenario, r.Totals.Workloads, reports.Dur(r.DurationSeconds), filepath.Join(out, reports.HTMLFile))
	return nil
}
