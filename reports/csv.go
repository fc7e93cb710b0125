package reports

import (
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"
	"time"

	"github.com/kueue-sim/kueue-sim/sim/metrics"
)

// CSV files WriteAll writes. A time series has a row for a key (a flavor's
// resource, a ClusterQueue's, a team's) at 0, whenever its values change,
// and at the end of the run; a row's values hold from its t_seconds until
// the key's next row.
var csvFiles = []struct {
	name  string
	write func(*Report, *csv.Writer) error
}{
	{"utilization.csv", (*Report).utilizationCSV},
	{"clusterqueues.csv", (*Report).clusterQueuesCSV},
	{"teams.csv", (*Report).teamsCSV},
	{"pending.csv", (*Report).pendingCSV},
	{"waits.csv", (*Report).waitsCSV},
	{"shares.csv", (*Report).sharesCSV},
}

// WriteCSV writes the named CSV file's content to w.
func (r *Report) WriteCSV(name string, w io.Writer) error {
	for _, f := range csvFiles {
		if f.name == name {
			cw := csv.NewWriter(w)
			if err := f.write(r, cw); err != nil {
				return fmt.Errorf("writing %s: %w", name, err)
			}
			cw.Flush()
			return cw.Error()
		}
	}
	return fmt.Errorf("no CSV file named %s", name)
}

func num(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// changes writes, for every key, a row at 0, at each metrics.Segment where the
// key's values change, and at the end of the run.
func (r *Report) changes(w *csv.Writer, n int, values func(s metrics.Segment, key int) []string, row func(t float64, key int, vals []string) []string) error {
	segs := r.series.Segments
	last := make([][]string, n)
	for j, s := range segs {
		for k := 0; k < n; k++ {
			vals := values(s, k)
			if j > 0 && slices.Equal(vals, last[k]) {
				continue
			}
			last[k] = vals
			if err := w.Write(row(s.From.Seconds(), k, vals)); err != nil {
				return err
			}
		}
	}
	if len(segs) == 0 {
		return nil
	}
	for k := 0; k < n; k++ {
		if err := w.Write(row(r.series.End.Seconds(), k, last[k])); err != nil {
			return err
		}
	}
	return nil
}

func (r *Report) utilizationCSV(w *csv.Writer) error {
	if err := w.Write([]string{"t_seconds", "flavor", "resource", "capacity", "used", "utilization"}); err != nil {
		return err
	}
	return r.changes(w, len(r.Flavors), func(s metrics.Segment, k int) []string {
		f := r.Flavors[k]
		used := r.series.FlavorAt(s, metrics.FR{Flavor: f.Flavor, Resource: f.Resource})
		u := ""
		if f.Capacity > 0 {
			u = num(used / f.Capacity)
		}
		return []string{num(used), u}
	}, func(t float64, k int, vals []string) []string {
		f := r.Flavors[k]
		return append([]string{num(t), f.Flavor, f.Resource, num(f.Capacity)}, vals...)
	})
}

func (r *Report) clusterQueuesCSV(w *csv.Writer) error {
	if err := w.Write([]string{"t_seconds", "cluster_queue", "flavor", "resource", "nominal", "used", "borrowed", "lent"}); err != nil {
		return err
	}
	type key struct {
		cq string
		q  QuotaUsage
		i  int
	}
	var ks []key
	for _, cq := range r.ClusterQueues {
		for _, q := range cq.Resources {
			ks = append(ks, key{cq.Name, q, cqIndex(r.series, metrics.GFR{Group: cq.Name, Flavor: q.Flavor, Resource: q.Resource})})
		}
	}
	lent := r.series.Lent
	seg := map[time.Duration]int{}
	for j, s := range r.series.Segments {
		seg[s.From] = j
	}
	return r.changes(w, len(ks), func(s metrics.Segment, k int) []string {
		used := s.CQ[ks[k].i]
		return []string{num(used), num(max(0, used-ks[k].q.Nominal)), num(lent[seg[s.From]][ks[k].i])}
	}, func(t float64, k int, vals []string) []string {
		q := ks[k].q
		return append([]string{num(t), ks[k].cq, q.Flavor, q.Resource, num(q.Nominal)}, vals...)
	})
}

func (r *Report) teamsCSV(w *csv.Writer) error {
	if err := w.Write([]string{"t_seconds", "team", "flavor", "resource", "used"}); err != nil {
		return err
	}
	ks := r.series.Teams.List()
	sorted := make([]int, len(ks))
	for i := range sorted {
		sorted[i] = i
	}
	sort.Slice(sorted, func(a, b int) bool {
		x, y := ks[sorted[a]], ks[sorted[b]]
		return x.Group < y.Group || x.Group == y.Group && (x.Flavor < y.Flavor || x.Flavor == y.Flavor && x.Resource < y.Resource)
	})
	return r.changes(w, len(ks), func(s metrics.Segment, k int) []string {
		return []string{num(s.Team[sorted[k]])}
	}, func(t float64, k int, vals []string) []string {
		key := ks[sorted[k]]
		return append([]string{num(t), key.Group, key.Flavor, key.Resource}, vals...)
	})
}

func (r *Report) pendingCSV(w *csv.Writer) error {
	if err := w.Write([]string{"t_seconds", "cluster_queue", "workloads", "resource", "requested"}); err != nil {
		return err
	}
	return r.changes(w, len(r.ClusterQueues), func(s metrics.Segment, k int) []string {
		cq := r.ClusterQueues[k].Name
		return []string{strconv.Itoa(int(r.series.PendingNAt(s, cq))), r.Resource, num(r.series.PendingAt(s, cq, r.Resource))}
	}, func(t float64, k int, vals []string) []string {
		return append([]string{num(t), r.ClusterQueues[k].Name}, vals...)
	})
}

func (r *Report) waitsCSV(w *csv.Writer) error {
	if err := w.Write([]string{"workload", "team", "kind", "arrived_seconds", "admitted_seconds", "wait_seconds"}); err != nil {
		return err
	}
	for _, x := range r.waits {
		admitted := ""
		if x.Admitted >= 0 {
			admitted = num(x.Admitted)
		}
		if err := w.Write([]string{x.Workload, x.Team, x.Kind, num(x.Arrived), admitted, num(x.Seconds)}); err != nil {
			return err
		}
	}
	return nil
}

// cqIndex is the number of a ClusterQueue series the report lists.
func cqIndex(tl *metrics.Timeline, k metrics.GFR) int {
	i, _ := tl.CQs.Index(k)
	return i
}

// sharesCSV has a row per weighted share Kueue published (a ClusterQueue's
// or a Cohort's) and one per series at the end of the run; no rows when
// the log holds none.
func (r *Report) sharesCSV(w *csv.Writer) error {
	if err := w.Write([]string{"t_seconds", "kind", "name", "cohort", "weight", "weighted_share"}); err != nil {
		return err
	}
	run := r.run
	for _, s := range r.shares {
		cohort, weight := run.Cohorts[s.Name], metrics.Weight(run.Weights, s.Name)
		if s.Kind == metrics.KindCohort {
			cohort, weight = run.CohortParents[s.Name], metrics.Weight(run.CohortWeights, s.Name)
		}
		row := func(t float64, v int64) []string {
			return []string{num(t), s.Kind, s.Name, cohort, num(weight), strconv.FormatInt(v, 10)}
		}
		for _, p := range s.Points {
			if err := w.Write(row(p.T.Seconds(), p.Share)); err != nil {
				return err
			}
		}
		if last := s.Points[len(s.Points)-1]; last.T < r.series.End {
			if err := w.Write(row(r.series.End.Seconds(), last.Share)); err != nil {
				return err
			}
		}
	}
	return nil
}
