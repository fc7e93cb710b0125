//go:build integration

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/kueue-sim/kueue-sim/sim/record"
)

// Kueue's Workload reconciler keeps waitForPodsReady's timeout and the
// requeuing back-off on simulated time (sim/kueuesetup/workload_timers.go,
// sim/engine/wake.go): a Job whose pod never starts is evicted 5 s after
// each admission and requeued 1 s, then 2 s, later, at the simulated times
// Kueue computed, until backoffLimitCount deactivates it; and a --realtime
// run decides the same. A reconciler measuring a wall-clock timeout from
// a simulated admission would evict it at 0 s and never requeue it within
// the run.
func TestPodsReadyTimeoutAndBackoffRunOnSimulatedTime(t *testing.T) {
	want := []string{
		"0s " + record.TypeAdmitted + " ",
		"5s " + record.TypeEvicted + " PodsReadyTimeout",
		"6s " + record.TypeAdmitted + " ",
		"11s " + record.TypeEvicted + " PodsReadyTimeout",
		"13s " + record.TypeAdmitted + " ",
		"18s " + record.TypeEvicted + " DeactivatedDueToRequeuingLimitExceeded",
	}
	for mode, decisions := range replayModes(t, "testdata/pods-ready-backoff.yaml", "virtual", "realtime") {
		var got []string
		for _, e := range decisions {
			got = append(got, e.T.D().String()+" "+e.Type+" "+e.Reason)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s run decided\n  %q\nwant\n  %q", mode, got, want)
		}
	}
}

// slowReconcilers is how much a "slow" replay slows each reconcile of
// Kueue's clocked and job-integration reconcilers (--slow-kueue): enough
// that the race of an instant's woken reconciles with its ends of runs
// decided wrongly every time before the engine ordered them
// (sim/engine/wake.go), and little enough that an admission fair sharing
// replay takes half a minute.
const slowReconcilers = "30ms"

// replayModes runs scenario once per mode ("virtual"; "realtime" for
// --realtime; "slow" for --slow-kueue slowReconcilers, Kueue's clocked and
// job reconcilers slowed as on a machine far busier than CI's) and returns
// each run's decisions; it fails t unless every mode wrote the same
// decisions.jsonl.
func replayModes(t *testing.T, scenario string, modes ...string) map[string][]record.Event {
	t.Helper()
	decisions := map[string][]record.Event{}
	var first []byte
	for i, mode := range modes {
		dir := t.TempDir()
		args := []string{"run", scenario, "--report", dir, "--progress", "none"}
		switch mode {
		case "realtime":
			args = append(args, "--realtime")
		case "slow":
			args = append(args, "--slow-kueue", slowReconcilers)
		}
		if code, out := runSim(t, args...); code != 0 {
			t.Fatalf("%s run exited %d:\n%s", mode, code, out)
		}
		path := filepath.Join(dir, "decisions.jsonl")
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = data
		} else if !bytes.Equal(data, first) {
			t.Errorf("%s and %s runs wrote different decisions:\n%s:\n%s\n%s:\n%s", modes[0], mode, modes[0], first, mode, data)
		}
		decisions[mode] = readEvents(t, path)
	}
	return decisions
}
