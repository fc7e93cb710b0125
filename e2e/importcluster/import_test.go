//go:build e2e

package importcluster

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/e2e-framework/pkg/envconf"
	"sigs.k8s.io/e2e-framework/pkg/features"

	"github.com/kueue-sim/kueue-sim/e2e/suite"
	"github.com/kueue-sim/kueue-sim/forecast"
	"github.com/kueue-sim/kueue-sim/sim/record"
)

// TestImportedClusterReplaysAlike replays flavor-placement on KWOK and
// leaves it there (--keep), imports that cluster with `sim import cluster`
// (list calls only), replays the imported scenario on the embedded control
// plane, and compares the workloads each replay admitted per ClusterQueue.
func TestImportedClusterReplaysAlike(t *testing.T) {
	const keptPrefix = "imp-"
	f := features.New("sim import cluster of a replayed KWOK cluster").
		Assess("the imported scenario admits the same workloads per ClusterQueue", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			sim, err := suite.SimBinary(ctx)
			if err != nil {
				t.Fatal(err)
			}
			root, err := suite.RepoRoot(ctx)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			onKwok, imported, replay := filepath.Join(dir, "kwok"), filepath.Join(dir, "imported"), filepath.Join(dir, "replay")
			suite.RunSim(ctx, t, sim, "run", filepath.Join(root, "scenarios", "flavor-placement.yaml"), "--report", onKwok, "--progress", "none",
				"--kubeconfig", cfg.KubeconfigFile(), "--kwok-nodes", "--namespace-prefix", keptPrefix, "--keep")
			// The run deleted its long-running owners at its end; the
			// import must not find their Workloads before the garbage
			// collector does.
			if err := suite.WaitOrphansCollected(ctx, cfg, time.Minute); err != nil {
				t.Fatal(err)
			}
			// A replay stamps Kueue's conditions in simulated time (from
			// 2026-01-01), so the window reaches back past them.
			suite.RunSim(ctx, t, sim, "import", "cluster", "--kubeconfig", cfg.KubeconfigFile(), "--since", "87600h", "-o", imported)
			if data, err := os.ReadFile(filepath.Join(imported, "scenario.yaml")); err == nil {
				t.Logf("imported scenario:\n%s", data)
			}
			out := suite.RunSim(ctx, t, sim, "run", filepath.Join(imported, "scenario.yaml"), "--report", replay, "--progress", "none")
			// Kueue rewrites one pending PyTorchJob's message at every try
			// here (one pod set short, then the other): the settle must see
			// that churn for what it is, not wait out its 2-minute cap.
			if strings.Contains(out, "still busy after") {
				t.Errorf("the replay of the imported scenario waited out the settle's cap")
			}

			// Workloads the run deleted (long-running ones at runUntil) are
			// not in the cluster to import.
			deleted, err := deletedWorkloads(filepath.Join(onKwok, "events.jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			want, err := admittedPerClusterQueue(filepath.Join(onKwok, "decisions.jsonl"), deleted)
			if err != nil {
				t.Fatal(err)
			}
			got, err := admittedPerClusterQueue(filepath.Join(replay, "decisions.jsonl"), nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(want) == 0 {
				t.Fatal("the KWOK run admitted nothing")
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("admitted workloads per ClusterQueue differ, KWOK run (-) vs replay of its import (+):\n%s", diff)
				for _, run := range []string{onKwok, replay} {
					t.Logf("%s:\n%s", run, turningPoints(filepath.Join(run, "decisions.jsonl")))
				}
			} else {
				t.Logf("admitted workloads per ClusterQueue agree: %v", want)
			}
			return ctx
		}).
		Assess("sim forecast reads the same cluster, with get and list rights alone, and forecasts a job on it", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			sim, err := suite.SimBinary(ctx)
			if err != nil {
				t.Fatal(err)
			}
			kubeconfig, err := readerKubeconfig(ctx, cfg)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			out := suite.RunSim(ctx, t, sim, "forecast", filepath.Join("testdata", "forecast", "job.yaml"),
				"--kubeconfig", kubeconfig, "--since", "87600h", "--runs", "1", "-o", "json", "--report", dir)
			// A list the reader may not make is a "not read" warning.
			if strings.Contains(out, "not read: forbidden") {
				t.Errorf("config/rbac/reader.yaml does not grant every list the forecast makes:\n%s", out)
			}
			var fc forecast.Forecast
			if err := json.NewDecoder(strings.NewReader(out[max(strings.Index(out, "{"), 0):])).Decode(&fc); err != nil {
				t.Fatalf("reading the forecast: %v\n%s", err, out)
			}
			if len(fc.Alternatives) == 0 || len(fc.Alternatives[0].Jobs) == 0 {
				t.Fatalf("no forecast:\n%s", out)
			}
			// The kept run stamped its Workloads' conditions in simulated
			// time but their creation in wall time, so the import replays
			// hours of runs from arrivals a minute apart, and the job may
			// wait for some of them: it is admitted, by training.
			if s := fc.Alternatives[0].Jobs[0].Summary; s.Admitted != 1 || s.ClusterQueue != "training" {
				t.Errorf("forecast %+v, want the job admitted by ClusterQueue training:\n%s", s, out)
			}
			if _, err := os.Stat(filepath.Join(dir, "cluster", "scenario.yaml")); err != nil {
				t.Errorf("the imported cluster is not in the report: %v", err)
			}
			return ctx
		}).Feature()
	testenv.Test(t, f)
}

// admittedPerClusterQueue counts the workloads a run admitted, by
// ClusterQueue, each once however often it was admitted, leaving out the
// workloads in skip. A workload admitted again after an eviction counts
// once: the import takes its arrivals from the KWOK cluster's creation
// timestamps, which a replay on KWOK stamps in wall time, so the replay of
// the import packs arrivals its own way, and kube-scheduler may then leave
// a pod set of one workload unplaced until waitForPodsReady evicts it.
func admittedPerClusterQueue(path string, skip map[string]bool) (map[string]int, error) {
	evs, err := readEvents(path)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	out := map[string]int{}
	for _, e := range evs {
		if e.Type == record.TypeAdmitted && !skip[e.Workload] && !seen[e.Workload] {
			seen[e.Workload] = true
			out[e.ClusterQueue]++
		}
	}
	return out, nil
}

// deletedWorkloads are the workloads a run's events.jsonl says it deleted.
func deletedWorkloads(path string) (map[string]bool, error) {
	evs, err := readEvents(path)
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	for _, e := range evs {
		if e.Type == record.TypeDeleted {
			out[e.Workload] = true
		}
	}
	return out, nil
}

// turningPoints lists a run's admissions, preemptions and evictions, one
// per line, for a failure message to show where two runs part.
func turningPoints(path string) string {
	evs, err := readEvents(path)
	if err != nil {
		return err.Error()
	}
	var b strings.Builder
	for _, e := range evs {
		switch e.Type {
		case record.TypeAdmitted, record.TypePreempted, record.TypeEvicted, record.TypeFinished, record.TypeDeleted:
			fmt.Fprintf(&b, "  %v %s %s %s %s %s\n", time.Duration(e.T), e.Type, e.Workload, e.ClusterQueue, e.Reason, e.Message)
		}
	}
	return b.String()
}

func readEvents(path string) ([]record.Event, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return record.Read(f)
}
