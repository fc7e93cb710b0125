//go:build integration

package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// These tests run scenarios whose queues are Kueue manifests against the
// embedded control plane: the manifests' fields reach Kueue as written.

// runDecisions runs a scenario and returns its decisions.jsonl.
func runDecisions(t *testing.T, scenario string) []byte {
	t.Helper()
	dir := t.TempDir()
	code, out := runSim(t, "run", scenario, "--report", dir, "--progress", "none")
	if code != 0 {
		t.Fatalf("sim run %s exited %d:\n%s", scenario, code, out)
	}
	data, err := os.ReadFile(filepath.Join(dir, "decisions.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// A ClusterQueue manifest's queueingStrategy is Kueue's: under StrictFIFO
// a head workload that does not fit (big) blocks a later one that would
// (small); under BestEffortFIFO the later one is admitted at once.
func TestManifestQueueingStrategy(t *testing.T) {
	for _, tc := range []struct {
		scenario string
		small    float64 // when small is admitted, in simulated seconds
		big      float64
	}{
		// big stays at the head and is tried again as soon as hold ends
		// (30m); small goes once big has run (10m).
		{"testdata/manifest-strict-fifo.yaml", 2400, 1800},
		// big is set aside as inadmissible; Kueue retries it one second
		// (its requeue batch period) after hold frees the quota.
		{"testdata/manifest-best-effort-fifo.yaml", 120, 1801},
	} {
		t.Run(filepath.Base(tc.scenario), func(t *testing.T) {
			admitted := admissions(t, runDecisions(t, tc.scenario))
			if got := admitted["research/small-0"]; got != tc.small {
				t.Errorf("small admitted at %gs, want %gs (admissions: %v)", got, tc.small, admitted)
			}
			if got := admitted["research/big-0"]; got != tc.big {
				t.Errorf("big admitted at %gs, want %gs, once hold ends", got, tc.big)
			}
		})
	}
}

// A ClusterQueue manifest's flavorFungibility changes the flavor Kueue
// assigns: by default a workload that fits its first flavor only by
// borrowing borrows there; with whenCanBorrow: TryNextFlavor it takes the
// next flavor, which fits without borrowing.
func TestManifestFlavorFungibility(t *testing.T) {
	for _, tc := range []struct{ scenario, flavor string }{
		{"testdata/manifest-fungibility-default.yaml", "spot"},
		{"testdata/manifest-fungibility-try-next.yaml", "reserved"},
	} {
		t.Run(filepath.Base(tc.scenario), func(t *testing.T) {
			flavors := admittedFlavors(t, runDecisions(t, tc.scenario))
			if got := flavors["research/first-0"]; got != "spot" {
				t.Errorf("first assigned %q, want spot (it fits the nominal quota)", got)
			}
			if got := flavors["research/second-0"]; got != tc.flavor {
				t.Errorf("second assigned %q, want %q (flavors: %v)", got, tc.flavor, flavors)
			}
		})
	}
}

// The same queues written in kueue.x-k8s.io/v1beta1 and v1beta2 give
// byte-identical decisions: Kueue's conversion loses nothing kueue-sim
// applies.
func TestManifestVersionsDecideAlike(t *testing.T) {
	v2 := runDecisions(t, "testdata/manifest-versions-v1beta2.yaml")
	v1 := runDecisions(t, "testdata/manifest-versions-v1beta1.yaml")
	if !bytes.Equal(v1, v2) {
		a, b := strings.Split(string(v2), "\n"), strings.Split(string(v1), "\n")
		for i := 0; i < len(a) && i < len(b); i++ {
			if a[i] != b[i] {
				t.Fatalf("decisions differ at line %d:\n  v1beta2: %s\n  v1beta1: %s", i+1, a[i], b[i])
			}
		}
		t.Fatalf("decisions differ in length: %d (v1beta2) and %d (v1beta1) lines", len(a), len(b))
	}
	if len(admissions(t, v2)) != 3 {
		t.Errorf("want the three workloads admitted:\n%s", v2)
	}
}

// admittedFlavors maps each workload to the GPU flavor of its first
// admission in a decisions.jsonl.
func admittedFlavors(t *testing.T, data []byte) map[string]string {
	t.Helper()
	out := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 1<<20), 1<<24)
	for sc.Scan() {
		var e struct {
			Type     string            `json:"type"`
			Workload string            `json:"workload"`
			Flavors  map[string]string `json:"flavors"`
		}
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("decisions.jsonl: %v", err)
		}
		if _, seen := out[e.Workload]; e.Type == "Admitted" && !seen {
			out[e.Workload] = e.Flavors["nvidia.com/gpu"]
		}
	}
	return out
}
