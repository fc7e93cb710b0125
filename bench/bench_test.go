//go:build integration

package bench

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
)

// sizes are the workload counts to run: KUEUESIM_BENCH_SIZES (comma
// separated), default 1000.
func sizes() []int {
	env := os.Getenv("KUEUESIM_BENCH_SIZES")
	if env == "" {
		return []int{1000}
	}
	var out []int
	for _, f := range strings.Split(env, ",") {
		if n, err := strconv.Atoi(strings.TrimSpace(f)); err == nil && n > 0 {
			out = append(out, n)
		}
	}
	return out
}

// pruning is sim run's default, off, unless KUEUESIM_BENCH_PRUNE=1 asks
// for --prune-finished.
func pruning() bool { return os.Getenv(envPrune) == "1" }

// BenchmarkBaseline replays Kueue's scheduler-performance baseline shape
// with raw Workloads, with Jobs, and with raw Workloads on StrictFIFO
// ClusterQueues (whose heads Kueue retries at every cycle) at each size.
func BenchmarkBaseline(b *testing.B) {
	for _, file := range []string{"kueue-baseline", "kueue-baseline-jobs", "kueue-baseline-strict-fifo"} {
		for _, n := range sizes() {
			b.Run(file+"/"+strconv.Itoa(n), func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					fig, err := Spawn(context.Background(), Spec{
						Scenario: "../scenarios/bench/" + file + ".yaml", Workloads: n, Prune: pruning(),
						CPUProfile: os.Getenv("KUEUESIM_BENCH_PROFILE_DIR") + profileName(file, n),
						Events:     eventsName(file, n, i),
					})
					if err != nil {
						b.Fatal(err)
					}
					b.Log(fig)
					report(b, fig)
					sameDecisions(b, file+"/"+strconv.Itoa(n), fig.Decisions)
				}
			})
		}
	}
}

// decisionsSeen holds the decisions.jsonl hash of each scenario and size
// run so far in this process (-count runs a benchmark again in it).
var decisionsSeen = hashes{}

// sameDecisions fails the benchmark when a run wrote other decisions than
// an earlier one of the same scenario and size: replays are
// deterministic, and a benchmark is where large runs are repeated.
func sameDecisions(b *testing.B, key, hash string) {
	if err := decisionsSeen.check(key, hash); err != nil {
		b.Error(err)
	}
}

// eventsName is where a run's event log goes, when KUEUESIM_BENCH_EVENTS_DIR
// is set.
func eventsName(file string, n, i int) string {
	dir := os.Getenv("KUEUESIM_BENCH_EVENTS_DIR")
	if dir == "" {
		return ""
	}
	return fmt.Sprintf("%s/%s-%d-%d-%d.events.jsonl", dir, file, n, os.Getpid(), i)
}

// profileName is where a run's CPU profile goes, when
// KUEUESIM_BENCH_PROFILE_DIR is set.
func profileName(file string, n int) string {
	if os.Getenv("KUEUESIM_BENCH_PROFILE_DIR") == "" {
		return ""
	}
	return "/" + file + "-" + strconv.Itoa(n) + ".cpu.pprof"
}

func report(b *testing.B, f Figures) {
	b.ReportMetric(f.Wall.Seconds(), "wall-s")
	b.ReportMetric(f.WorkloadsPerSecond(), "workloads/s")
	b.ReportMetric(float64(f.PeakRSS)/(1<<20), "peak-RSS-MiB")
	b.ReportMetric(f.WritesPerWorkload(), "writes/workload")
	b.ReportMetric(f.WritesPerSecond(), "writes/s")
	b.ReportMetric(float64(f.Steps), "steps")
	if len(f.KueueCycles) > 0 {
		b.ReportMetric(f.CyclesPerWorkload(), "kueue-cycles/workload")
	}
}
