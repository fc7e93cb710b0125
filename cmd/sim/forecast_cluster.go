package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/kueue-sim/kueue-sim/importer/kube"
)

// importForForecast reads the cluster of f.kubeconfig into a scenario (in
// --report DIR/cluster, else a temporary folder) whose running workloads
// run on past the present, and points f at it: f.scenario, and f.at at the
// cluster's present unless --at was given. cleanup removes the temporary
// folder.
func importForForecast(cmd *cobra.Command, f *forecastFlags) (cleanup func(), err error) {
	cleanup = func() {}
	if f.since <= 0 {
		return cleanup, withExitCode(2, fmt.Errorf("--since %s: give a positive duration, e.g. 168h", f.since))
	}
	if f.defaultDuration <= 0 {
		return cleanup, withExitCode(2, fmt.Errorf("--default-duration %s: give a positive duration, e.g. 1h", f.defaultDuration))
	}
	c, source, err := importReader(f.kubeconfig, f.context)
	if err != nil {
		return cleanup, err
	}
	dir := filepath.Join(f.report, "cluster")
	if f.report == "" {
		if dir, err = os.MkdirTemp("", "sim-forecast-cluster-"); err != nil {
			return cleanup, err
		}
		tmp := dir
		cleanup = func() { _ = os.RemoveAll(tmp) }
	}
	ctx := cmd.Context()
	if ctx == nil {
		ctx = context.Background()
	}
	imp, err := kube.FromCluster(ctx, c, kube.ClusterOptions{Since: f.since, Name: "cluster", Dir: dir, Source: source,
		Remaining: true, RemainingDefault: f.defaultDuration, History: f.history})
	if err != nil {
		return cleanup, fmt.Errorf("reading %s: %w", source, err)
	}
	if err := imp.Write(dir); err != nil {
		return cleanup, err
	}
	f.scenario = filepath.Join(dir, "scenario.yaml")
	if !cmd.Flags().Changed("at") {
		f.at = imp.At
	}
	w := cmd.ErrOrStderr()
	fmt.Fprintf(w, "read %s: %d workloads of the last %s; the job arrives at %s of its replay (now)\n", source, imp.Workloads, f.since, f.at)
	if imp.NoHistory > 0 {
		fmt.Fprintf(w, "%d running workloads have no alike workload that ran longer: each runs on for --default-duration %s\n", imp.NoHistory, f.defaultDuration)
	}
	for _, m := range imp.Missing {
		fmt.Fprintf(w, "warning: not read: %s\n", m)
	}
	for _, m := range imp.Warnings {
		fmt.Fprintf(w, "warning: %s\n", m)
	}
	return cleanup, nil
}
