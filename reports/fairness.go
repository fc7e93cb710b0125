package reports

import (
	"fmt"
	"math"
	"sort"

	"github.com/kueue-sim/kueue-sim/sim/metrics"
)

// maxShareRows bounds the rows of the HTML table of shares over time;
// shares.csv has them all.
const maxShareRows = 200

// fairnessSummary is a cohort's fairness in one sentence.
func fairnessSummary(f CohortFairness) string {
	if !f.SharesObserved {
		return fmt.Sprintf("Cohort %s: the log holds no weighted share of its members. Kueue publishes them only with fair sharing on (cluster.kueue.fairSharing), and logs recorded before kueue-sim observed them have none.", f.Cohort)
	}
	s := fmt.Sprintf("Cohort %s, in Kueue's weighted shares (1000 = the cohort's whole lendable quota borrowed at weight 1): ", f.Cohort)
	switch {
	case f.WaitingSeconds == 0:
		s += "no member had workloads waiting."
	case f.MaxGap == 0:
		s += fmt.Sprintf("over %s with workloads waiting, no waiting member trailed another's share.", Dur(f.WaitingSeconds))
	default:
		s += fmt.Sprintf("over %s with workloads waiting, the largest gap was %s (%s waiting below %s from %s), %s on average.",
			Dur(f.WaitingSeconds), shareText(f.MaxGap), f.MaxGapLow, f.MaxGapHigh, Dur(f.MaxGapAtSeconds), trim(f.MeanGap))
	}
	if f.UnjudgedSeconds > 0 {
		s += fmt.Sprintf(" For %s a member's published share disagreed with the log's admissions (Kueue had not updated it yet): gaps there leave it out.", Dur(f.UnjudgedSeconds))
	}
	return s
}

// shareText formats a weighted share; Kueue's maximum (a zero weight that
// borrows) as such.
func shareText(v float64) string {
	if v >= math.MaxInt64 {
		return "max (weight 0, borrowing)"
	}
	return trim(v)
}

// shareTable is a cohort's published shares over time: a row at every
// instant a member's share changed, a column per member; more counts the
// rows left out.
func (r *Report) shareTable(f CohortFairness) (header []string, rows [][]string, more int) {
	header = []string{"At"}
	var series []metrics.ShareSeries
	for _, m := range f.Members {
		header = append(header, m.Name)
		var s metrics.ShareSeries
		for _, x := range r.shares {
			if x.Kind == m.Kind && x.Name == m.Name {
				s = x
			}
		}
		series = append(series, s)
	}
	var times []float64
	seen := map[float64]bool{}
	for _, s := range series {
		for _, p := range s.Points {
			if t := p.T.Seconds(); !seen[t] {
				seen[t] = true
				times = append(times, t)
			}
		}
	}
	sort.Float64s(times)
	next := make([]int, len(series))
	for _, t := range times {
		row := []string{Dur(t)}
		for i, s := range series {
			for next[i] < len(s.Points) && s.Points[next[i]].T.Seconds() <= t {
				next[i]++
			}
			cell := "-"
			if next[i] > 0 {
				cell = shareText(float64(s.Points[next[i]-1].Share))
			}
			row = append(row, cell)
		}
		if len(rows) == maxShareRows {
			more++
			continue
		}
		rows = append(rows, row)
	}
	return header, rows, more
}

// ShareTable is a cohort's shares over time, for the HTML template.
type ShareTable struct {
	Header []string
	Rows   [][]string
	More   int
}

func (r *Report) shareTables() map[string]ShareTable {
	out := map[string]ShareTable{}
	for _, f := range r.Fairness {
		if f.SharesObserved {
			h, rows, more := r.shareTable(f)
			out[f.Cohort] = ShareTable{h, rows, more}
		}
	}
	return out
}
