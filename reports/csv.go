package reports

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
)

// CSV files WriteAll writes. Time series rows hold from t_seconds until
// the next row's t_seconds; the last row of each key is at the end of the
// run.
var csvFiles = []struct {
	name  string
	write func(*Report, *csv.Writer) error
}{
	{"utilization.csv", (*Report).utilizationCSV},
	{"clusterqueues.csv", (*Report).clusterQueuesCSV},
	{"teams.csv", (*Report).teamsCSV},
	{"pending.csv", (*Report).pendingCSV},
	{"waits.csv", (*Report).waitsCSV},
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

// eachStep calls f with every segment's start time and the segment, then
// once more with the end of the run and the last segment.
func (r *Report) eachStep(f func(t float64, s segment) error) error {
	segs := r.series.Segments
	for _, s := range segs {
		if err := f(s.From.Seconds(), s); err != nil {
			return err
		}
	}
	if len(segs) > 0 {
		return f(r.series.End.Seconds(), segs[len(segs)-1])
	}
	return nil
}

func (r *Report) utilizationCSV(w *csv.Writer) error {
	if err := w.Write([]string{"t_seconds", "flavor", "resource", "capacity", "used", "utilization"}); err != nil {
		return err
	}
	return r.eachStep(func(t float64, s segment) error {
		for _, f := range r.Flavors {
			used := s.Flavor[fr{f.Flavor, f.Resource}]
			u := ""
			if f.Capacity > 0 {
				u = num(used / f.Capacity)
			}
			if err := w.Write([]string{num(t), f.Flavor, f.Resource, num(f.Capacity), num(used), u}); err != nil {
				return err
			}
		}
		return nil
	})
}

func (r *Report) clusterQueuesCSV(w *csv.Writer) error {
	if err := w.Write([]string{"t_seconds", "cluster_queue", "flavor", "resource", "nominal", "used", "borrowed", "lent"}); err != nil {
		return err
	}
	lent := lending(r.run, r.series)
	i := 0
	return r.eachStep(func(t float64, s segment) error {
		idx := min(i, len(lent)-1)
		i++
		for _, cq := range r.ClusterQueues {
			for _, q := range cq.Resources {
				g := gfr{cq.Name, q.Flavor, q.Resource}
				used := s.CQ[g]
				row := []string{num(t), cq.Name, q.Flavor, q.Resource, num(q.Nominal), num(used),
					num(max(0, used-q.Nominal)), num(lent[idx][g])}
				if err := w.Write(row); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

func (r *Report) teamsCSV(w *csv.Writer) error {
	if err := w.Write([]string{"t_seconds", "team", "flavor", "resource", "used"}); err != nil {
		return err
	}
	return r.eachStep(func(t float64, s segment) error {
		for _, team := range r.Teams {
			for _, u := range team.Resources {
				if err := w.Write([]string{num(t), team.Name, u.Flavor, u.Resource, num(s.Team[gfr{team.Name, u.Flavor, u.Resource}])}); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

func (r *Report) pendingCSV(w *csv.Writer) error {
	if err := w.Write([]string{"t_seconds", "cluster_queue", "workloads", "resource", "requested"}); err != nil {
		return err
	}
	return r.eachStep(func(t float64, s segment) error {
		for _, cq := range r.ClusterQueues {
			if err := w.Write([]string{num(t), cq.Name, strconv.Itoa(s.PendingN[cq.Name]), r.Resource, num(s.Pending[cq.Name][r.Resource])}); err != nil {
				return err
			}
		}
		return nil
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
