//go:build integration

package conformance

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Every bundled scenario passes its expectations on the Kueue release of
// KUEUESIM_CONFORMANCE_SIM, and two runs write one decisions.jsonl. The
// default build's runs of them are cmd/sim's tests; this one holds every
// other release to the same.
func TestBundledScenariosOnRelease(t *testing.T) {
	if os.Getenv("KUEUESIM_CONFORMANCE_SIM") == "" {
		t.Skip("KUEUESIM_CONFORMANCE_SIM is unset: cmd/sim's tests replay the bundled scenarios on the default build")
	}
	paths, err := filepath.Glob("../scenarios/*.yaml")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no bundled scenario found: %v", err)
	}
	for _, path := range paths {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".yaml"), func(t *testing.T) {
			var sums [2]string
			for i := range sums {
				dir := t.TempDir()
				cmd := exec.Command(sim, "run", path, "--progress", "none", "--report", dir)
				cmd.Env = append(os.Environ(), "KUEUESIM_RUN_ROOT="+t.TempDir())
				var out bytes.Buffer
				cmd.Stdout, cmd.Stderr = &out, &out
				if err := cmd.Run(); err != nil {
					t.Fatalf("sim run %s: %v:\n%s", path, err, failures(out.String()))
				}
				data, err := os.ReadFile(filepath.Join(dir, "decisions.jsonl"))
				if err != nil {
					t.Fatal(err)
				}
				sums[i] = fmt.Sprintf("%x", sha256.Sum256(data))[:12]
			}
			if sums[0] != sums[1] {
				t.Fatalf("two runs of %s decide differently: decisions.jsonl %s, then %s", path, sums[0], sums[1])
			}
			t.Logf("decisions.jsonl sha256 %s", sums[0])
		})
	}
}
