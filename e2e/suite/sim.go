package suite

import (
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// RunSim runs the sim binary with args and fails the test with its output
// when it fails; it logs how long it took and what it printed, and returns
// that output.
func RunSim(ctx context.Context, t *testing.T, sim string, args ...string) (output string) {
	t.Helper()
	began := time.Now()
	out, err := exec.CommandContext(ctx, sim, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("sim %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	t.Logf("sim %s: %s\n%s", strings.Join(args[:min(2, len(args))], " "), time.Since(began).Round(100*time.Millisecond), out)
	return string(out)
}
