//go:build e2e

package scenario

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/e2e-framework/pkg/envconf"
	"sigs.k8s.io/e2e-framework/pkg/features"

	"github.com/kueue-sim/kueue-sim/e2e/suite"
	"github.com/kueue-sim/kueue-sim/sim/record"
)

// prefix is the KWOK run's namespace prefix.
const prefix = "e2e-"

// TestSameDecisionsEmbeddedAndOnKwok replays flavor-placement on both
// targets and compares their admissions and placements.
func TestSameDecisionsEmbeddedAndOnKwok(t *testing.T) {
	f := features.New("flavor-placement embedded and on KWOK").
		Assess("same admissions and placements by pool", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			sim, err := suite.SimBinary(ctx)
			if err != nil {
				t.Fatal(err)
			}
			root, err := suite.RepoRoot(ctx)
			if err != nil {
				t.Fatal(err)
			}
			scenario := filepath.Join(root, "scenarios", "flavor-placement.yaml")
			dir := t.TempDir()
			embedded, onKwok := filepath.Join(dir, "embedded"), filepath.Join(dir, "kwok")
			suite.RunSim(ctx, t, sim, "run", scenario, "--report", embedded, "--progress", "none")
			suite.RunSim(ctx, t, sim, "run", scenario, "--report", onKwok, "--progress", "none",
				"--kubeconfig", cfg.KubeconfigFile(), "--kwok-nodes", "--namespace-prefix", prefix)

			types := []string{record.TypeAdmitted, record.TypePlaced}
			want, err := suite.Decisions(filepath.Join(embedded, "decisions.jsonl"), "", types...)
			if err != nil {
				t.Fatal(err)
			}
			got, err := suite.Decisions(filepath.Join(onKwok, "decisions.jsonl"), prefix, types...)
			if err != nil {
				t.Fatal(err)
			}
			if len(want) == 0 {
				t.Fatal("the embedded run decided nothing")
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("admissions and placements differ, embedded (-) vs KWOK (+):\n%s", diff)
			}
			t.Logf("%d admissions and placements agree", len(want))
			return ctx
		}).Feature()
	testenv.Test(t, f)
}
