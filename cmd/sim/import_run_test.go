//go:build integration

package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/kueue-sim/kueue-sim/sim/record"
)

// An imported openb trace replays end to end: a task limited to T4 GPUs
// (gpu_spec) gets Kueue's t4 flavor though v100m16 comes first, and its pod
// lands on the T4 node; the allocation curve reads the run.
func TestOpenBReplayHonoursGPUSpec(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "openb.yaml")
	data := filepath.Join("..", "..", "importer", "openb", "testdata")
	if code, msg := simCmd(t, "import", "openb", "--nodes", filepath.Join(data, "nodes.csv"),
		"--pods", filepath.Join(data, "tasks-t4.csv"), "--mode", "fill", "-o", out); code != 0 {
		t.Fatalf("import: exit %d\n%s", code, msg)
	}
	report := filepath.Join(dir, "report")
	if code, msg := runSim(t, "run", out, "--prune-finished", "--report", report, "--progress", "none"); code != 0 {
		t.Fatalf("run: exit %d\n%s", code, msg)
	}
	var admitted, placed bool
	for _, e := range readEvents(t, filepath.Join(report, "events.jsonl")) {
		if e.Stream != "shape-2" { // p2: 2 GPUs, gpu_spec T4
			continue
		}
		switch e.Type {
		case record.TypeAdmitted:
			admitted = true
			if e.Flavors["nvidia.com/gpu"] != "t4" {
				t.Errorf("%s admitted on flavors %v, want t4", e.Workload, e.Flavors)
			}
		case record.TypePlaced:
			placed = true
			if !strings.HasPrefix(e.Node, "t4-") {
				t.Errorf("%s placed on %s, want a T4 node", e.Workload, e.Node)
			}
		}
	}
	if !admitted || !placed {
		t.Errorf("the T4-only task was admitted %v, placed %v", admitted, placed)
	}
	if code, msg := simCmd(t, "import", "openb-curve", out, filepath.Join(report, "events.jsonl")); code != 0 ||
		!strings.Contains(msg, "admitted by Kueue") {
		t.Errorf("openb-curve: exit %d\n%s", code, msg)
	}
}
