package reports

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

// workloadWait is one workload's wait.
type workloadWait struct {
	Workload, Team, Kind string
	Arrived              float64
	// Admitted is the first admission's time; -1 when never admitted.
	Admitted float64
	Seconds  float64
}

func workloadWaits(run *record.Run) []workloadWait {
	var out []workloadWait
	for _, w := range run.Workloads {
		if w.Refused != nil {
			continue
		}
		ww := workloadWait{Workload: w.Name, Team: w.Team, Kind: w.Kind, Arrived: w.Arrived.Seconds(), Admitted: -1}
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

// waitStats groups waits: all workloads, then per team, then per kind.
func waitStats(waits []workloadWait) []WaitStats {
	if len(waits) == 0 {
		return nil
	}
	out := []WaitStats{summarise(WaitStats{}, waits)}
	teams, kinds := map[string][]workloadWait{}, map[string][]workloadWait{}
	for _, w := range waits {
		teams[w.Team] = append(teams[w.Team], w)
		kinds[w.Kind] = append(kinds[w.Kind], w)
	}
	for _, t := range sortedKeys(teams) {
		out = append(out, summarise(WaitStats{Team: t}, teams[t]))
	}
	for _, k := range sortedKeys(kinds) {
		out = append(out, summarise(WaitStats{Kind: k}, kinds[k]))
	}
	return out
}

// summarise fills s from waits with gonum's empirical quantiles: the p-th
// quantile is the smallest wait at least a fraction p of waits are below or
// equal to.
func summarise(s WaitStats, waits []workloadWait) WaitStats {
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
	s.P50 = stat.Quantile(0.5, stat.Empirical, xs, nil)
	s.P90 = stat.Quantile(0.9, stat.Empirical, xs, nil)
	s.P99 = stat.Quantile(0.99, stat.Empirical, xs, nil)
	s.Max = xs[len(xs)-1]
	return s
}
