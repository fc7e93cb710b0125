//go:build integration

package bench

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/kueue-sim/kueue-sim/importer/openb"
	"github.com/kueue-sim/kueue-sim/sim/record"
)

// traces is the shared trace folder (KUEUESIM_TRACES overrides it).
func traces() string {
	if t := os.Getenv("KUEUESIM_TRACES"); t != "" {
		return t
	}
	return filepath.Join("..", "..", "shared", "traces")
}

// BenchmarkOpenBFill replays the default openb trace in fill mode (8,152
// tasks resampled to 130% of 6,212 GPUs on 1,213 nodes) with batch Jobs
// through Kueue and kube-scheduler, and prints its
// allocation curve beside the published policies. It runs once per
// GPU-sharing mapping (whole GPUs and thousandths; see package openb): the
// two bracket what a GPU-sharing scheduler reaches. Run one with
// BENCH=OpenBFill/whole or BENCH=OpenBFill/milli.
func BenchmarkOpenBFill(b *testing.B) {
	dir := filepath.Join(traces(), "alibaba-gpu-v2023")
	pods := filepath.Join(dir, "openb_pod_list_default.csv")
	if _, err := os.Stat(pods); err != nil {
		b.Skipf("no openb trace at %s (set KUEUESIM_TRACES): %v", dir, err)
	}
	for _, sharing := range []openb.Sharing{openb.Whole, openb.Milli} {
		b.Run(string(sharing), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				openBFill(b, dir, pods, sharing, int64(42+i))
			}
		})
	}
}

func openBFill(b *testing.B, dir, pods string, sharing openb.Sharing, seed int64) {
	imp, err := openb.FromFiles(filepath.Join(dir, "openb_node_list_gpu_node.csv"), pods, openb.Options{Mode: openb.Fill, Sharing: sharing, Seed: seed})
	if err != nil {
		b.Fatal(err)
	}
	tmp := b.TempDir()
	scenario := filepath.Join(tmp, "openb.yaml")
	if err := imp.Write(scenario); err != nil {
		b.Fatal(err)
	}
	events := filepath.Join(tmp, "events.jsonl")
	fig, err := Spawn(context.Background(), Spec{Scenario: scenario, Prune: pruning(), Events: events})
	if err != nil {
		b.Fatal(err)
	}
	b.Log(fig)
	report(b, fig)
	curve, err := curveOf(scenario, events, imp.Inventory.TotalGPUs)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(curve.Allocated[100], "allocated%@100")
	b.ReportMetric(curve.Allocated[130], "allocated%@130")
	pub, err := openb.ReadPublished(filepath.Join(traces(), "fgd-expected", "analysis_allo_discrete.csv"), openb.TraceName(pods), openb.DefaultTune)
	if err != nil {
		b.Log(err)
	}
	b.Logf("seed %d, GPU sharing %s: GPU allocation (%% of %d GPUs) against arrived GPU demand (%% of capacity); %d of %d tasks admitted, %d placed:\n%s",
		seed, sharing, imp.Inventory.TotalGPUs, curve.AdmittedTasks, curve.Tasks, curve.PlacedTasks, openb.Table(pub,
			map[string][openb.CurvePoints]float64{
				"Kueue + kube-scheduler (allocated), " + sharingLabel[sharing]: curve.Allocated,
				"Kueue (admitted), " + sharingLabel[sharing]:                   curve.Admitted,
			}))
}

// sharingLabel names a GPU-sharing mapping in the comparison table.
var sharingLabel = map[openb.Sharing]string{
	openb.Whole: "a GPU per fractional task",
	openb.Milli: "GPUs shared in thousandths",
}

func curveOf(scenario, events string, gpus int64) (*openb.Curve, error) {
	index, err := openb.ReadIndex(openb.TasksPath(scenario))
	if err != nil {
		return nil, err
	}
	f, err := os.Open(events)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	evs, err := record.Read(f)
	if err != nil {
		return nil, err
	}
	return openb.AllocationCurve(index, evs, gpus)
}
