package metrics

import (
	"sort"

	"gonum.org/v1/gonum/stat"

	"github.com/kueue-sim/kueue-sim/sim/record"
)

// WaitStats summarise queue waits (arrival to first admission) of a group
// of workloads, in simulated seconds. Team and Kind empty: all workloads.
type WaitStats struct {
	Team string `json:"team,omitempty"`
	Kind string `json:"kind,omitempty"`
	// Workloads counts the workloads (refused ones excluded); NeverAdmitted
	// of them waited until the end of the run.
	Workloads     int     `json:"workloads"`
	NeverAdmitted int     `json:"neverAdmitted"`
	Mean          float64 `json:"meanSeconds"`
	P50           float64 `json:"p50Seconds"`
	P90           float64 `json:"p90Seconds"`
	P99           float64 `json:"p99Seconds"`
	Max           float64 `json:"maxSeconds"`
}

// Wait is one workload's queue wait.
type Wait struct {
	Workload, Team, Stream, Kind string
	Arrived                      float64
	// Admitted is the first admission's time; -1 when never admitted.
	Admitted float64
	Seconds  float64
}

// Waits are the queue waits of every workload not refused, in the run's
// workload order: from arrival to first admission, or to the end of the
// run when never admitted.
func Waits(run *record.Run) []Wait {
	var out []Wait
	for _, w := range run.Workloads {
		if w.Refused != nil {
			continue
		}
		ww := Wait{Workload: w.Name, Team: w.Team, Stream: w.Stream, Kind: w.Kind, Arrived: w.Arrived.Seconds(), Admitted: -1}
		end := run.End
		if w.Admitted() {
			end = w.Admissions[0].T.D()
			ww.Admitted = end.Seconds()
		}
		ww.Seconds = (end - w.Arrived).Seconds()
		out = append(out, ww)
	}
	return out
}

// WaitGroups groups waits: all workloads, then per team, then per kind.
func WaitGroups(waits []Wait) []WaitStats {
	if len(waits) == 0 {
		return nil
	}
	out := []WaitStats{Summarise(WaitStats{}, waits)}
	teams, kinds := map[string][]Wait{}, map[string][]Wait{}
	for _, w := range waits {
		teams[w.Team] = append(teams[w.Team], w)
		kinds[w.Kind] = append(kinds[w.Kind], w)
	}
	for _, t := range sortedKeys(teams) {
		out = append(out, Summarise(WaitStats{Team: t}, teams[t]))
	}
	for _, k := range sortedKeys(kinds) {
		out = append(out, Summarise(WaitStats{Kind: k}, kinds[k]))
	}
	return out
}

// Summarise fills s from waits (at least one).
func Summarise(s WaitStats, waits []Wait) WaitStats {
	xs := make([]float64, len(waits))
	for i, w := range waits {
		xs[i] = w.Seconds
		if w.Admitted < 0 {
			s.NeverAdmitted++
		}
	}
	sort.Float64s(xs)
	s.Workloads = len(xs)
	s.Mean = stat.Mean(xs, nil)
	s.P50 = Quantile(0.5, xs)
	s.P90 = Quantile(0.9, xs)
	s.P99 = Quantile(0.99, xs)
	s.Max = xs[len(xs)-1]
	return s
}

// Quantile is gonum's empirical p-quantile of sorted values (at least
// one): the smallest value at least a fraction p of them are below or
// equal to. Reports and the queueWait expectation both use it.
func Quantile(p float64, sorted []float64) float64 {
	return stat.Quantile(p, stat.Empirical, sorted, nil)
}
