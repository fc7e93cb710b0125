package bench

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kueue-sim/kueue-sim/scenarios"
)

func TestScaleGenerator(t *testing.T) {
	in := "cohorts:\n  - className: cohort\n    count: 5\n    queuesSets:\n    - className: cq\n      count: 6\n      workloadsSets:\n      - count: 350\n        creationIntervalMs: 100\n      - count: 50\n        creationIntervalMs: 1200\n"
	out := string(scaleGenerator([]byte(in), 0.1))
	for _, want := range []string{"    count: 5\n", "      count: 6\n", "      - count: 35\n", "      - count: 5\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("scaled config lacks %q:\n%s", want, out)
		}
	}
}

// The bench scenarios load, hold Kueue's baseline counts, and scale.
func TestScaleScenario(t *testing.T) {
	for _, f := range []string{"kueue-baseline.yaml", "kueue-baseline-jobs.yaml"} {
		s, err := scenarios.LoadFile(filepath.Join("..", "scenarios", "bench", f))
		if err != nil {
			t.Fatal(err)
		}
		total := 0
		for _, w := range s.Workloads {
			total += int(*w.Count)
		}
		if total != baselineWorkloads || len(s.Queues.ClusterQueues) != 30 {
			t.Errorf("%s: %d workloads in %d ClusterQueues, want %d in 30", f, total, len(s.Queues.ClusterQueues), baselineWorkloads)
		}
		if n := Scale(s, 1000.0/baselineWorkloads); n < 950 || n > 1050 || len(s.Expectations) != 0 {
			t.Errorf("%s: scaled to %d workloads, %d expectations", f, n, len(s.Expectations))
		}
	}
}

func TestTreeRSS(t *testing.T) {
	if _, err := os.Stat("/proc/self/statm"); err != nil {
		t.Skip("no /proc")
	}
	if r := TreeRSS(os.Getpid()); r <= 0 {
		t.Errorf("RSS of this process = %d", r)
	}
	n, by, err := countWrites([]byte("apiserver_request_total{code=\"201\",resource=\"events\",verb=\"POST\"} 7\napiserver_request_total{code=\"200\",resource=\"pods\",verb=\"GET\"} 100\napiserver_request_total{code=\"200\",resource=\"pods\",verb=\"PATCH\"} 3\n"))
	if err != nil || n != 10 || by["events"] != 7 || by["pods"] != 3 {
		t.Errorf("writes = %d %v, %v; want 10 {events 7, pods 3}", n, by, err)
	}
}
