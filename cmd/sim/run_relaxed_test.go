package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// Relaxed pacing (concurrent submissions, pruning of finished objects)
// keeps every expectation of scenarios whose outcome does not depend on
// tie order; raw Workloads preempted by Kueue are released by the engine
// and run again.
func TestRelaxedRuns(t *testing.T) {
	for _, f := range []string{"../../scenarios/flavor-placement.yaml", "testdata/raw-preemption.yaml"} {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".yaml"), func(t *testing.T) {
			t.Parallel()
			code, out := runSim(t, "run", f, "--relaxed", "--progress", "none")
			if code != 0 || !strings.Contains(out, "pacing relaxed") {
				t.Fatalf("exit %d:\n%s", code, out)
			}
			if strings.Contains(out, "warning") {
				t.Errorf("a step did not settle:\n%s", out)
			}
		})
	}
}
