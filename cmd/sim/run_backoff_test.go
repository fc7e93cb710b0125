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
// run decides the same. The previous build evicted it at 0 s, its
// reconciler measuring a wall-clock timeout from a simulated admission,
// and never requeued it within the run.
func TestPodsReadyTimeoutAndBackoffRunOnSimulatedTime(t *testing.T) {
	decisions := map[string][]byte{}
	for _, mode := range []string{"virtual", "realtime"} {
		dir := t.TempDir()
		args := []string{"run", "testdata/pods-ready-backoff.yaml", "--report", dir, "--progress", "none"}
		if mode == "realtime" {
			args = append(args, "--realtime")
		}
		if code, out := runSim(t, args...); code != 0 {
			t.Fatalf("%s run exited %d:\n%s", mode, code, out)
		}
		var got []string
		for _, e := range readEvents(t, filepath.Join(dir, "decisions.jsonl")) {
			got = append(got, e.T.D().String()+" "+e.Type+" "+e.Reason)
		}
		want := []string{
			"0s " + record.TypeAdmitted + " ",
			"5s " + record.TypeEvicted + " PodsReadyTimeout",
			"6s " + record.TypeAdmitted + " ",
			"11s " + record.TypeEvicted + " PodsReadyTimeout",
			"13s " + record.TypeAdmitted + " ",
			"18s " + record.TypeEvicted + " DeactivatedDueToRequeuingLimitExceeded",
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s run decided\n  %q\nwant\n  %q", mode, got, want)
		}
		data, err := os.ReadFile(filepath.Join(dir, "decisions.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		decisions[mode] = data
	}
	if !bytes.Equal(decisions["virtual"], decisions["realtime"]) {
		t.Errorf("virtual and real time wrote different decisions:\nvirtual:\n%s\nrealtime:\n%s", decisions["virtual"], decisions["realtime"])
	}
}
