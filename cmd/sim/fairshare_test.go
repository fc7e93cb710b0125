//go:build integration

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Kueue balances four weighted ClusterQueues (weights 1, 1, 2, 4; the
// weight-2 one ends one GPU above the others): fairShare, read from the
// weighted shares Kueue publishes, passes. The log carries those shares
// as Share events, never as decisions, and the report draws them.
func TestFairShareBalancedByKueuePasses(t *testing.T) {
	dir := t.TempDir()
	code, out := runSim(t, "run", "testdata/fair-weighted-balanced.yaml", "--report", dir, "--progress", "none")
	if code != 0 {
		t.Fatalf("exit code %d, want 0:\n%s", code, out)
	}
	for _, want := range []string{"PASS  balanced-by-kueue", "PASS  nominal-quota-back-at-once", "PASS  d-runs-its-two"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	read := func(name string) string {
		t.Helper()
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	events, decisions := read("events.jsonl"), read("decisions.jsonl")
	for _, cq := range []string{"a", "b", "c", "d"} {
		if !strings.Contains(events, `"type":"Share","clusterQueue":"`+cq+`"`) {
			t.Errorf("events.jsonl has no Share event of ClusterQueue %s", cq)
		}
	}
	if !strings.Contains(events, `"clusterQueue":"c","weightedShare":63`) {
		t.Error(`events.jsonl never shows c at weighted share 63 (6 GPUs at weight 2 in a 16-GPU cohort)`)
	}
	if strings.Contains(decisions, `"Share"`) {
		t.Error("decisions.jsonl holds Share events: Kueue writes them asynchronously, they are no decision")
	}
	html := read("report.html")
	if !strings.Contains(html, `id="chart-shares"`) || !strings.Contains(html, "Weighted shares over time") {
		t.Error("report.html lacks the weighted-share chart or table")
	}
	if csv := read("shares.csv"); !strings.Contains(csv, ",ClusterQueue,c,gpus,2,63") {
		t.Errorf("shares.csv lacks c at 63:\n%s", csv)
	}
}

// A ClusterQueue that may not reclaim waits at weighted share 0 while
// another borrows its quota: fairShare and nominalGuarantee fail with the
// instant, both ClusterQueues, their shares and the waiting workloads.
func TestFairShareStarvedFails(t *testing.T) {
	code, out := runSim(t, "run", "testdata/fair-starved.yaml", "--progress", "none")
	if code != 1 {
		t.Fatalf("exit code %d, want 1:\n%s", code, out)
	}
	for _, want := range []string{
		"FAIL  b-not-starved",
		"at 10m0s ClusterQueue b (weight 1) had 4 workload(s) waiting (b/b-train-0",
		"at weighted share 0 while ClusterQueue a (weight 1) held 500: 500 apart, more than tolerance 0.1 allows",
		"FAIL  b-gets-its-quota",
		"ClusterQueue b had b/b-train-0 (1 nvidia.com/gpu) waiting and 3 more that fit from 10m0s to the end of the run, still short (50m0s, more than 5m0s) while it held 0 of its 4 nvidia.com/gpu of nominal quota",
		"PASS  a-borrows-everything",
		"2 of 3 expectations failed",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
