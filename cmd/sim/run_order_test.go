//go:build integration

package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Arrivals of one instant tied in priority are admitted in scenario order,
// a later same-instant arrival of higher priority wins, and every run of
// the same scenario and seed writes the same decisions, with no wall-clock
// pacing; quota freed at an end is offered to the waiting workloads one
// simulated second later, Kueue's requeue batch period: Kueue orders by the simulated arrival (the Workload informer
// transform) and schedules the instant only once all of it is queued (the
// scheduler gate).
func TestSameInstantArrivalsKeepScenarioOrder(t *testing.T) {
	const runs = 3
	hashes := map[string]int{}
	for i := 0; i < runs; i++ {
		dir := t.TempDir()
		code, out := runSim(t, "run", "testdata/tie-order.yaml", "--report", dir, "--progress", "none")
		if code != 0 {
			t.Fatalf("run %d exited %d:\n%s", i, code, out)
		}
		data, err := os.ReadFile(filepath.Join(dir, "decisions.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		hashes[fmt.Sprintf("%x", sha256.Sum256(data))]++
		if i > 0 {
			continue
		}
		admitted := admissions(t, data)
		last := -1.0
		for n := 0; n < 40; n++ {
			at, ok := admitted[fmt.Sprintf("research/wave-%d", n)]
			if !ok {
				t.Fatalf("wave-%d was never admitted", n)
			}
			if at < last {
				t.Errorf("wave-%d admitted at %gs, before an earlier arrival (%gs): not in scenario order", n, at, last)
			}
			last = at
			// Each wave's end frees the quota at k×601 s; Kueue retries the
			// waiting workloads one batch second later (its requeue period,
			// in simulated time).
			if want := float64(n/4) * 601; at != want {
				t.Errorf("wave-%d admitted at %gs, want %gs (four at a time, in order, one requeue second after the previous wave's end)", n, at, want)
			}
		}
		if hi, lo := admitted["research/late-high-0"], admitted["research/early-low-0"]; hi != 0 || lo != 601 {
			t.Errorf("late-high admitted at %gs and early-low at %gs; want the higher priority first (0s, 601s)", hi, lo)
		}
	}
	if len(hashes) != 1 {
		t.Errorf("%d runs wrote %d different decision traces: %v", runs, len(hashes), hashes)
	}
}

// admissions maps each workload to the simulated second of its first
// admission in a decisions.jsonl.
func admissions(t *testing.T, data []byte) map[string]float64 {
	t.Helper()
	out := map[string]float64{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		var e struct {
			T        json.Number `json:"t"`
			Type     string      `json:"type"`
			Workload string      `json:"workload"`
		}
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("decisions.jsonl: %v", err)
		}
		if e.Type != "Admitted" || strings.TrimSpace(e.Workload) == "" {
			continue
		}
		if _, seen := out[e.Workload]; !seen {
			out[e.Workload], _ = strconv.ParseFloat(e.T.String(), 64)
		}
	}
	return out
}
