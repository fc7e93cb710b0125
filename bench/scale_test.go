package bench

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/kueue-sim/kueue-sim/scenarios"
)

// baselineWorkloads is the size of Kueue's baseline.
const baselineWorkloads = 15_000

var countLine = regexp.MustCompile(`(?m)^(\s*- count: )(\d+)$`)

// scaleGenerator scales the workload counts of a generator config: the
// "- count:" lines followed by creationIntervalMs (workload sets), not the
// cohort and queue counts.
func scaleGenerator(cfg []byte, factor float64) []byte {
	lines := strings.Split(string(cfg), "\n")
	for i, l := range lines {
		m := countLine.FindStringSubmatch(l)
		if m == nil || i+1 >= len(lines) || !strings.Contains(lines[i+1], "creationIntervalMs") {
			continue
		}
		n, _ := strconv.Atoi(m[2])
		lines[i] = m[1] + strconv.Itoa(max(1, int(float64(n)*factor+0.5)))
	}
	return []byte(strings.Join(lines, "\n"))
}

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
