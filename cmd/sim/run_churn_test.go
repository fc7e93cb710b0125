//go:build integration

package main

import (
	"strings"
	"testing"
)

// Kueue can keep a workload it cannot admit busy for good: here it
// rewrites a pending PyTorchJob's message at every try, one pod set short
// and then the other, and each write requeues it. A step must move on,
// record that as a warning, and never wait out the settle's 2-minute cap.
func TestKueueChurnDoesNotHoldAStep(t *testing.T) {
	code, out := runSim(t, "run", "testdata/kueue-churn/scenario.yaml", "--report", t.TempDir(), "--progress", "none")
	if code != 0 {
		t.Fatalf("sim run exited %d:\n%s", code, out)
	}
	if strings.Contains(out, "still busy after") {
		t.Errorf("a step waited out the settle's cap:\n%s", out)
	}
	if !strings.Contains(out, "Kueue has 1 workloads to try in ClusterQueue training, and its scheduling cycles admitted, preempted and evicted nothing while writing to the API") {
		t.Errorf("no warning that Kueue kept retrying the pending PyTorchJob:\n%s", out)
	}
}
