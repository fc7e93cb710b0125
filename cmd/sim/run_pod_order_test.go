//go:build integration

package main

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/kueue-sim/kueue-sim/sim/record"
)

// The pods of one instant reach kube-scheduler in scenario order, not in
// the order their controllers make them (sim/engine/hold.go): the Job,
// first in the scenario, takes the emptier 4-GPU node, and the 4-GPU
// Notebook admitted with it is placed only when the Job ends.
func TestSameInstantPodsReachKubeSchedulerInScenarioOrder(t *testing.T) {
	dir := t.TempDir()
	if code, out := runSim(t, "run", "testdata/pod-order.yaml", "--report", dir, "--progress", "none"); code != 0 {
		t.Fatalf("run exited %d:\n%s", code, out)
	}
	placed := map[string][]string{}
	for _, e := range readEvents(t, filepath.Join(dir, "decisions.jsonl")) {
		if e.Type == record.TypePlaced {
			placed[e.Workload] = append(placed[e.Workload], e.T.D().String()+" "+e.Pool)
		}
	}
	want := map[string]string{"research/job-0": "0s big", "research/notebook-0": (10 * time.Minute).String() + " big"}
	for wl, w := range want {
		if got := placed[wl]; len(got) != 1 || got[0] != w {
			t.Errorf("%s placed %v, want once at %s", wl, got, w)
		}
	}
}
