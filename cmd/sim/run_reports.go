package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/pflag"

	"github.com/kueue-sim/kueue-sim/reports"
	"github.com/kueue-sim/kueue-sim/sim/engine"
)

// runReportFlags are sim run's report outputs beside --report.
type runReportFlags struct {
	junit string
}

func addRunReportFlags(fl *pflag.FlagSet, f *runReportFlags) {
	fl.StringVar(&f.junit, "junit", "", "write the expectations as JUnit XML to this file (one test case each)")
}

// writeRunReports writes the reports of a finished run into reportDir
// (when set) and its expectations as JUnit XML (when asked).
func writeRunReports(out io.Writer, reportDir string, f runReportFlags, res *engine.Result) error {
	if reportDir != "" {
		if _, err := reports.WriteAll(reportDir, res.Run, res.Expectations); err != nil {
			return fmt.Errorf("writing the reports: %w", err)
		}
		fmt.Fprintf(out, "report in %s\n", filepath.Join(reportDir, reports.HTMLFile))
	}
	if f.junit != "" {
		fh, err := os.Create(f.junit)
		if err != nil {
			return fmt.Errorf("writing JUnit XML: %w", err)
		}
		err = reports.WriteJUnit(fh, reports.JUnitSuite{Scenario: res.Run.Scenario, Seed: res.Seed, KueueVersion: res.Run.KueueVersion, Wall: res.Wall, Results: res.Expectations})
		if cerr := fh.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("writing JUnit XML: %w", cerr)
		}
		if err != nil {
			return err
		}
	}
	return nil
}
