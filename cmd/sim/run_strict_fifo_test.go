//go:build integration

package main

import (
	"strings"
	"testing"
)

// A StrictFIFO ClusterQueue whose head cannot fit is an everyday state:
// Kueue retries the head at every cycle, admitting nothing and writing
// nothing, and a step must treat that as settled, as it treats a
// BestEffortFIFO queue that set its head aside. The replay reaches Kueue's
// StrictFIFO and BestEffortFIFO verdicts side by side, records no warning
// that Kueue retried without progress, and no step waits out the retry
// rule's grace (each such wait costs a wall second).
func TestStrictFIFOHeadWaitingCostsNoRetries(t *testing.T) {
	code, out := runSim(t, "run", "testdata/strict-fifo-head-waits.yaml", "--report", t.TempDir(), "--progress", "none", "-v", "2")
	if code != 0 {
		t.Fatalf("sim run exited %d:\n%s", code, out)
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "warning at") && strings.Contains(line, "workloads to try") {
			t.Errorf("a step warned that Kueue retried without progress: %s", line)
		}
	}
	if strings.Contains(out, "Kueue retried without progress, moved on") {
		t.Errorf("a step waited out the retry rule's grace:\n%s", out)
	}
	if !strings.Contains(out, "Kueue at a fixed point, moved on") {
		t.Errorf("no step saw Kueue at a fixed point; the StrictFIFO head was not retried?\n%s", out)
	}
}
