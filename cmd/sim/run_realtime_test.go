//go:build integration

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The virtual clock does not change what Kueue decides: a scenario on
// second-scale times writes the same decisions.jsonl replayed in virtual
// time (instants as fast as the control plane settles) and with --realtime
// (paced to the wall clock, so what Kueue runs on wall time — its status
// batching, back-off, the Job controller — elapses alongside simulated
// time).
func TestRealtimeMatchesVirtualTime(t *testing.T) {
	decisions := map[string][]byte{}
	for _, mode := range []string{"virtual", "realtime"} {
		dir := t.TempDir()
		args := []string{"run", "testdata/realtime.yaml", "--report", dir, "--progress", "none"}
		if mode == "realtime" {
			args = append(args, "--realtime")
		}
		began := time.Now()
		code, out := runSim(t, args...)
		if code != 0 {
			t.Fatalf("%s run exited %d:\n%s", mode, code, out)
		}
		if mode == "realtime" && !strings.Contains(out, "real time") {
			t.Errorf("the realtime run does not say so:\n%s", out)
		}
		if took := time.Since(began); mode == "realtime" && took < 15*time.Second {
			t.Errorf("the realtime run took %s: it was not paced to the wall clock (the scenario spans over 15 simulated seconds)", took)
		}
		data, err := os.ReadFile(filepath.Join(dir, "decisions.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(data, []byte(`"Preempted"`)) {
			t.Errorf("%s run: no preemption in the decisions; the scenario no longer tests what it should:\n%s", mode, data)
		}
		decisions[mode] = data
	}
	if !bytes.Equal(decisions["virtual"], decisions["realtime"]) {
		t.Errorf("virtual and real time wrote different decisions:\nvirtual:\n%s\nrealtime:\n%s", decisions["virtual"], decisions["realtime"])
	}
}
