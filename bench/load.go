package bench

import (
	"encoding/csv"
	"fmt"
	"os"
	"slices"
	"strconv"
	"time"

	"github.com/kueue-sim/kueue-sim/sim/record"
)

// Load is how hard Kueue had to work for a run's workloads, read the same
// way from both sides of the comparison: how long workloads waited for
// admission and how often Kueue evicted one. Kueue's harness runs on the
// wall clock: when its Kueue falls behind (at 15k on 2 cores a cycle took
// 0.7 s, longer than the workloads' 0.2–1 s runtimes), each cycle finds
// the previous one's workloads ended and meets far less contention than a
// replay of the same shape at its nominal times; Load shows by how much.
type Load struct {
	// Admitted counts workloads admitted at least once.
	Admitted int
	// WaitP50 and WaitP90 are quantiles of the time from a workload's
	// arrival (creation, for the harness) to its first admission, over
	// the admitted ones: simulated time for kueue-sim, wall time for the
	// harness.
	WaitP50, WaitP90 time.Duration
	// Evictions counts evictions (preemptions included).
	Evictions int
}

func (l Load) String() string {
	return fmt.Sprintf("admission wait p50 %s p90 %s over %d admitted, %d evictions",
		l.WaitP50, l.WaitP90, l.Admitted, l.Evictions)
}

// runLoad reads a replay's Load from its record.
func runLoad(r *record.Run) Load {
	var l Load
	var waits []time.Duration
	for _, w := range r.Workloads {
		l.Evictions += len(w.Preemptions) + len(w.Evictions)
		if len(w.Admissions) > 0 {
			waits = append(waits, w.Admissions[0].T.D()-w.Arrived)
		}
	}
	l.Admitted = len(waits)
	l.WaitP50, l.WaitP90 = quantile(waits, 0.5), quantile(waits, 0.9)
	return l
}

// harnessLoad reads the Load of a run of Kueue's harness from the
// wlStates.csv its runner writes (one row per workload: "ms to admitted"
// from the workload's first event, 0 when never admitted, and "num
// evictions").
func harnessLoad(path string) (Load, error) {
	f, err := os.Open(path)
	if err != nil {
		return Load{}, fmt.Errorf("reading the harness's workload states: %w", err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return Load{}, fmt.Errorf("reading the harness's workload states %s: %w", path, err)
	}
	if len(rows) == 0 {
		return Load{}, fmt.Errorf("the harness's workload states %s are empty", path)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	admitted, okA := col["ms to admitted"]
	evictions, okE := col["num evictions"]
	if !okA || !okE {
		return Load{}, fmt.Errorf("the harness's workload states %s lack the columns \"ms to admitted\" and \"num evictions\" (header %v)", path, rows[0])
	}
	var l Load
	var waits []time.Duration
	for i, row := range rows[1:] {
		if len(row) != len(rows[0]) {
			return Load{}, fmt.Errorf("%s:%d: %d fields, want %d", path, i+2, len(row), len(rows[0]))
		}
		ms, err := strconv.ParseInt(row[admitted], 10, 64)
		if err != nil {
			return Load{}, fmt.Errorf("%s:%d: ms to admitted: %w", path, i+2, err)
		}
		n, err := strconv.Atoi(row[evictions])
		if err != nil {
			return Load{}, fmt.Errorf("%s:%d: num evictions: %w", path, i+2, err)
		}
		l.Evictions += n
		// The runner leaves 0 for a workload it never saw admitted; one
		// admitted within its first millisecond is rare enough to drop.
		if ms > 0 {
			waits = append(waits, time.Duration(ms)*time.Millisecond)
		}
	}
	l.Admitted = len(waits)
	l.WaitP50, l.WaitP90 = quantile(waits, 0.5), quantile(waits, 0.9)
	return l, nil
}

// quantile is the q-quantile of d by the nearest rank (d is sorted in
// place); 0 for none.
func quantile(d []time.Duration, q float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	slices.Sort(d)
	i := int(q*float64(len(d))+0.5) - 1
	return d[min(max(i, 0), len(d)-1)]
}
