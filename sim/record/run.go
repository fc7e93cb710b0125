package record

import (
	"sort"
	"time"
)

// Run is what a log says about a run.
type Run struct {
	Scenario string
	Seed     int64
	Pacing   string
	// KueueVersion is the release of the Kueue that decided; empty in a
	// log that does not say.
	KueueVersion string
	Capacity     map[string]map[string]float64
	Quotas       map[string]map[string]map[string]float64
	Cohorts      map[string]string
	Weights      map[string]float64
	// CohortParents and CohortWeights describe hierarchical cohorts;
	// FairSharing says Kueue's fair sharing was on.
	CohortParents map[string]string
	CohortWeights map[string]float64
	FairSharing   bool
	// Shares are Kueue's published weighted shares (TypeShare events), in
	// log order.
	Shares []Event
	// PendingCounts are Kueue's pending-workload counts per ClusterQueue
	// (TypePendingCounts events, each a change), in log order.
	PendingCounts []Event
	// End is the simulated time of the last event.
	End       time.Duration
	Workloads []*Workload
	Warnings  []Event
	// Changes are the scenario's changes to cluster objects (TypeChanged
	// events), in log order.
	Changes []Event
}

// Workload is one submitted workload's timeline.
type Workload struct {
	Name, Stream, Team, Kind string
	// ClusterQueue is where the workload's LocalQueue points.
	ClusterQueue string
	Priority     int32
	Requests     map[string]float64
	Pods         int
	Arrived      time.Duration
	Refused      *Event
	Admissions   []Event
	Preemptions  []Event
	Evictions    []Event // other than preemption
	Placements   []Event
	Running      []time.Duration
	Finished     *Event
	Deleted      *time.Duration
	// LastPending is Kueue's latest reason for not admitting it.
	LastPending *Event
}

// Admitted tells whether the workload was ever admitted.
func (w *Workload) Admitted() bool { return len(w.Admissions) > 0 }

// Build derives a Run from an event log.
func Build(events []Event) *Run {
	r := &Run{}
	byName := map[string]*Workload{}
	get := func(e Event) *Workload {
		w := byName[e.Workload]
		if w == nil {
			w = &Workload{Name: e.Workload, Stream: e.Stream, Team: e.Team, Kind: e.Kind}
			byName[e.Workload] = w
			r.Workloads = append(r.Workloads, w)
		}
		return w
	}
	for _, e := range events {
		if t := e.T.D(); t > r.End {
			r.End = t
		}
		switch e.Type {
		case TypeRun:
			r.Scenario, r.Pacing, r.KueueVersion = e.Scenario, e.Pacing, e.KueueVersion
			if e.Seed != nil {
				r.Seed = *e.Seed
			}
			r.Capacity, r.Quotas, r.Cohorts, r.Weights = e.Capacity, e.Quotas, e.Cohorts, e.Weights
			r.CohortParents, r.CohortWeights, r.FairSharing = e.CohortParents, e.CohortWeights, e.FairSharing
		case TypeArrived:
			w := get(e)
			w.Arrived, w.Requests, w.Pods, w.Priority, w.ClusterQueue = e.T.D(), e.Requests, e.Pods, e.Priority, e.ClusterQueue
		case TypeRefused:
			e := e
			get(e).Refused = &e
		case TypeAdmitted:
			w := get(e)
			w.Admissions = append(w.Admissions, e)
		case TypePreempted:
			w := get(e)
			w.Preemptions = append(w.Preemptions, e)
		case TypeEvicted:
			w := get(e)
			w.Evictions = append(w.Evictions, e)
		case TypePlaced:
			w := get(e)
			w.Placements = append(w.Placements, e)
		case TypeRunning:
			w := get(e)
			w.Running = append(w.Running, e.T.D())
		case TypeFinished:
			e := e
			get(e).Finished = &e
		case TypeDeleted:
			t := e.T.D()
			get(e).Deleted = &t
		case TypePending:
			e := e
			get(e).LastPending = &e
		case TypeShare:
			if e.WeightedShare != nil && (e.ClusterQueue != "") != (e.Cohort != "") {
				r.Shares = append(r.Shares, e)
			}
		case TypePendingCounts:
			if e.Counts != nil && e.ClusterQueue != "" {
				r.PendingCounts = append(r.PendingCounts, e)
			}
		case TypeWarning:
			r.Warnings = append(r.Warnings, e)
		case TypeChanged:
			r.Changes = append(r.Changes, e)
		}
	}
	sort.SliceStable(r.Workloads, func(i, j int) bool { return r.Workloads[i].Name < r.Workloads[j].Name })
	return r
}

// Interval is a span of simulated time during which a workload held quota.
type Interval struct {
	From, To time.Duration
	Usage    map[string]map[string]float64 // flavor → resource → amount
	Workload *Workload
}

// Tenure is one admission of a workload and the end that closed it: the
// next preemption, eviction, finish or deletion at or after it, or nil
// while it held quota when the run ended.
type Tenure struct {
	Admission Event
	End       *time.Duration
}

// Tenures pairs each of w's admissions with the end that closed it. Each
// end closes one admission: a workload preempted and admitted again at one
// instant holds its second admission from that instant to its next end,
// not for no time.
func (w *Workload) Tenures() []Tenure {
	var ends []time.Duration
	for _, e := range w.Preemptions {
		ends = append(ends, e.T.D())
	}
	for _, e := range w.Evictions {
		ends = append(ends, e.T.D())
	}
	if w.Finished != nil {
		ends = append(ends, w.Finished.T.D())
	}
	if w.Deleted != nil {
		ends = append(ends, *w.Deleted)
	}
	sort.Slice(ends, func(i, j int) bool { return ends[i] < ends[j] })
	out := make([]Tenure, 0, len(w.Admissions))
	next := 0
	for _, a := range w.Admissions {
		for next < len(ends) && ends[next] < a.T.D() {
			next++
		}
		t := Tenure{Admission: a}
		if next < len(ends) {
			t.End = &ends[next]
			next++
		}
		out = append(out, t)
	}
	return out
}

// Holdings lists, for every admission, the span until the workload was
// next preempted, evicted, finished or deleted, or the run ended.
func (r *Run) Holdings() []Interval {
	var out []Interval
	for _, w := range r.Workloads {
		for _, t := range w.Tenures() {
			to := r.End
			if t.End != nil {
				to = *t.End
			}
			out = append(out, Interval{From: t.Admission.T.D(), To: to, Usage: t.Admission.Usage, Workload: w})
		}
	}
	return out
}
