//go:build integration

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// --prune-finished keeps every expectation, raw Workloads preempted by
// Kueue included (the engine releases them and they run again), and two
// pruned runs write the same decisions; the deprecated --relaxed still
// works, means --prune-finished, and says so.
func TestPruneFinishedRuns(t *testing.T) {
	var raw [2][]byte
	for i, tc := range []struct{ file, flag string }{
		{"testdata/raw-preemption.yaml", "--prune-finished"},
		{"testdata/raw-preemption.yaml", "--relaxed"},
		{"../../scenarios/flavor-placement.yaml", "--prune-finished"},
	} {
		t.Run(strings.TrimSuffix(filepath.Base(tc.file), ".yaml")+tc.flag, func(t *testing.T) {
			dir := t.TempDir()
			code, out := runSim(t, "run", tc.file, tc.flag, "--report", dir, "--progress", "none")
			if code != 0 || !strings.Contains(out, "pruning finished workloads") {
				t.Fatalf("exit %d:\n%s", code, out)
			}
			if strings.Contains(out, "warning") {
				t.Errorf("a step did not settle:\n%s", out)
			}
			if deprecated := strings.Contains(out, "--relaxed has been deprecated"); deprecated != (tc.flag == "--relaxed") {
				t.Errorf("deprecation notice shown: %v, want %v:\n%s", deprecated, tc.flag == "--relaxed", out)
			}
			if i < len(raw) {
				data, err := os.ReadFile(filepath.Join(dir, "decisions.jsonl"))
				if err != nil {
					t.Fatal(err)
				}
				raw[i] = data
			}
		})
	}
	if len(raw[0]) == 0 || !bytes.Equal(raw[0], raw[1]) {
		t.Errorf("two pruned runs of raw-preemption wrote different (or no) decisions:\n%s\n---\n%s", raw[0], raw[1])
	}
}
