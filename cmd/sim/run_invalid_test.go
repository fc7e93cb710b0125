package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An invalid scenario is refused before anything starts, with exit code 2
// and the file, line and field.
func TestInvalidScenarioExitsTwo(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bad.yaml")
	if err := os.WriteFile(path, []byte("apiVersion: kueue-sim/v1alpha1\nkind: Scenario\ncluster:\n  nodePools:\n  - name: a\n    count: 1\n    gpus: 8\n    allocatable: {cpu: \"1\"}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out := runSim(t, "run", path)
	if code != 2 {
		t.Fatalf("exit code %d, want 2:\n%s", code, out)
	}
	if !strings.Contains(out, path+":7") || !strings.Contains(out, "cluster.nodePools[0].gpus") {
		t.Errorf("error does not name the file, line 7 and the field:\n%s", out)
	}
}

// A Kueue release kueue-sim does not build against is refused before
// anything starts, with exit code 2 and the supported releases.
func TestUnsupportedKueueReleaseExitsTwo(t *testing.T) {
	code, out := runSim(t, "run", "--kueue", "v0.15.0", "../../scenarios/quickstart.yaml")
	if code != 2 {
		t.Fatalf("exit code %d, want 2:\n%s", code, out)
	}
	if !strings.Contains(out, "unsupported Kueue release v0.15.0") || !strings.Contains(out, "v0.19.2") {
		t.Errorf("the error does not name the release and the supported ones:\n%s", out)
	}
}

// A scenario's cluster.kueueVersion picks the sim that replays it, so a
// release kueue-sim does not run is refused before anything starts, with
// exit code 2, the file and the field.
func TestScenarioPinnedKueueRelease(t *testing.T) {
	path := writeVariant(t, "../../scenarios/quickstart.yaml", "cluster:\n", "cluster:\n  kueueVersion: v0.15.0\n")
	code, out := runSim(t, "run", path)
	for _, want := range []string{path + ": cluster.kueueVersion v0.15.0", "unsupported Kueue release v0.15.0"} {
		if code != 2 || !strings.Contains(out, want) {
			t.Errorf("exit code %d, want 2 and %q:\n%s", code, want, out)
		}
	}
}
