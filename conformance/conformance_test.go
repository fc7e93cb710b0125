//go:build integration

package conformance

import (
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kueue-sim/kueue-sim/scenarios"
	"github.com/kueue-sim/kueue-sim/sim/harness"
	"github.com/kueue-sim/kueue-sim/sim/procs"
)

// cases are the scenario files of every case, manifests aside.
func cases(t *testing.T) []string {
	t.Helper()
	paths, err := filepath.Glob("*/*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Fatal("no conformance case found")
	}
	return paths
}

// Every case reaches the verdicts Kueue's own integration test asserts.
func TestKueueIntegrationVerdicts(t *testing.T) {
	for _, path := range cases(t) {
		name := strings.TrimSuffix(path, filepath.Ext(path))
		t.Run(name, func(t *testing.T) {
			t.Setenv(procs.EnvRunRoot, t.TempDir())
			s, err := scenarios.LoadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			res, err := harness.Run(ctx, s, harness.WithOutput(io.Discard))
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range res.Expectations {
				if !e.Passed {
					t.Errorf("%s: %s", e.Name, e.Message)
				}
			}
		})
	}
}
