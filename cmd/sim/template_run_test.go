//go:build integration

package main

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/kueue-sim/kueue-sim/sim/record"
)

// The example of streams of the team's own manifests replays with its
// expectations met (tolerations steer the PyTorchJob's workers to the
// tainted H100 flavor, the rest to A100), and what kueue-sim counts for
// each templated workload (its Arrived requests: the pods of the object as
// written, an init container and the RayJob's submitter included) is what
// Kueue's own job integrations take from quota for the same object.
func TestTemplatedStreamsReplayAsKueueCountsThem(t *testing.T) {
	countsAsKueue(t, "../../examples/templates/scenario.yaml", 7)
}

// A stream of each kind's own manifest (a Job with an init container and a
// sidecar, a PyTorchJob, a RayJob with its submitter pod, a RayCluster, a
// Notebook, an InferenceService whose predictor pods Kueue queues one by
// one, a raw Workload) is admitted, and what kueue-sim counts for each is
// what Kueue takes from quota.
func TestTemplatedStreamsOfEveryKindAsKueueCountsThem(t *testing.T) {
	countsAsKueue(t, "testdata/templates-every-kind.yaml", 7)
}

// countsAsKueue replays scenario, which must pass, and checks that its
// admitted workloads number n and that each one's Arrived requests equal
// the quota Kueue's admissions of it take, summed over flavors.
func countsAsKueue(t *testing.T, scenario string, n int) {
	t.Helper()
	dir := t.TempDir()
	code, out := runSim(t, "run", scenario, "--progress", "none", "--report", dir)
	if code != 0 {
		t.Fatalf("sim run exited %d:\n%s", code, out)
	}
	requests := map[string]map[string]float64{}
	usage := map[string]map[string]float64{}
	for _, e := range readEvents(t, filepath.Join(dir, "events.jsonl")) {
		switch e.Type {
		case record.TypeArrived:
			requests[e.Workload] = e.Requests
		case record.TypeAdmitted:
			if usage[e.Workload] == nil {
				usage[e.Workload] = map[string]float64{}
			}
			for _, byRes := range e.Usage {
				for res, q := range byRes {
					usage[e.Workload][res] += q
				}
			}
		}
	}
	if len(usage) != n {
		t.Fatalf("%d workloads admitted, want %d:\n%s", len(usage), n, out)
	}
	for wl, used := range usage {
		for res, q := range used {
			if want := requests[wl][res]; math.Abs(q-want) > 1e-6*math.Max(1, want) {
				t.Errorf("%s: Kueue took %v %s from quota, kueue-sim counts %v", wl, q, res, want)
			}
		}
		if len(used) != len(requests[wl]) {
			t.Errorf("%s: Kueue took %v, kueue-sim counts %v", wl, used, requests[wl])
		}
	}
}
