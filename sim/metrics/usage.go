package metrics

import (
	"math"
	"sort"

	"github.com/kueue-sim/kueue-sim/sim/record"
)

// FlavorUsage is how much of one flavor's resource Kueue admitted.
type FlavorUsage struct {
	Flavor   string `json:"flavor"`
	Resource string `json:"resource"`
	// Capacity is the allocatable amount on the flavor's nodes.
	Capacity float64 `json:"capacity"`
	// Quota is the sum of the ClusterQueues' nominal quotas.
	Quota          float64 `json:"quota"`
	UsedHours      float64 `json:"usedHours"`
	AvailableHours float64 `json:"availableHours"`
	// Utilization is UsedHours / AvailableHours (0 without capacity).
	Utilization float64 `json:"utilization"`
	AverageUsed float64 `json:"averageUsed"`
	PeakUsed    float64 `json:"peakUsed"`
}

// ClusterQueue is one ClusterQueue's quota and what it did with it.
type ClusterQueue struct {
	Name   string  `json:"name"`
	Cohort string  `json:"cohort,omitempty"`
	Weight float64 `json:"weight"`
	// Resources has one entry per flavor and resource with quota or use.
	Resources    []QuotaUsage `json:"resources"`
	Workloads    int          `json:"workloads"`
	Admissions   int          `json:"admissions"`
	Preemptions  int          `json:"preemptions"`
	PendingAtEnd int          `json:"pendingAtEnd"`
}

// QuotaUsage is a ClusterQueue's use of one flavor's resource.
type QuotaUsage struct {
	Flavor      string  `json:"flavor"`
	Resource    string  `json:"resource"`
	Nominal     float64 `json:"nominal"`
	UsedHours   float64 `json:"usedHours"`
	AverageUsed float64 `json:"averageUsed"`
	PeakUsed    float64 `json:"peakUsed"`
	// Borrowed is use above the nominal quota.
	BorrowedHours float64 `json:"borrowedHours"`
	PeakBorrowed  float64 `json:"peakBorrowed"`
	// Lent is unused nominal quota that the rest of the cohort borrowed.
	LentHours float64 `json:"lentHours"`
	PeakLent  float64 `json:"peakLent"`
}

// Team is one team's (namespace's) use of the cluster.
type Team struct {
	Name          string      `json:"name"`
	ClusterQueues []string    `json:"clusterQueues"`
	Workloads     int         `json:"workloads"`
	Admitted      int         `json:"admitted"`
	Preempted     int         `json:"preempted"`
	Refused       int         `json:"refused"`
	Resources     []TeamUsage `json:"resources"`
}

// TeamUsage is a team's use of one flavor's resource.
type TeamUsage struct {
	Flavor      string  `json:"flavor"`
	Resource    string  `json:"resource"`
	UsedHours   float64 `json:"usedHours"`
	AverageUsed float64 `json:"averageUsed"`
	PeakUsed    float64 `json:"peakUsed"`
}

// FlavorUsages is what Kueue admitted of every flavor's resource: the
// utilization the reports show and the utilization expectation checks.
func FlavorUsages(run *record.Run, tl *Timeline) []FlavorUsage {
	keys := map[FR]bool{}
	for _, k := range tl.Flavors.list {
		keys[k] = true
	}
	hours := run.End.Hours()
	var out []FlavorUsage
	for _, k := range sortedFR(keys) {
		u := FlavorUsage{Flavor: k.Flavor, Resource: k.Resource, Capacity: run.Capacity[k.Flavor][k.Resource]}
		for _, byFlavor := range run.Quotas {
			u.Quota += byFlavor[k.Flavor][k.Resource]
		}
		i := tl.Flavors.idx[k]
		at := func(s Segment) float64 { return s.Flavor[i] }
		u.UsedHours = tl.Integral(at) / 3600
		u.AvailableHours = u.Capacity * hours
		u.PeakUsed = tl.Peak(at)
		if hours > 0 {
			u.AverageUsed = u.UsedHours / hours
		}
		if u.AvailableHours > 0 {
			u.Utilization = u.UsedHours / u.AvailableHours
		}
		out = append(out, u)
	}
	return out
}

// ClusterQueues is each ClusterQueue's use of its quota: borrowing above
// its nominal quota and lending of its unused quota.
func ClusterQueues(run *record.Run, tl *Timeline) []ClusterQueue {
	names := map[string]bool{}
	for cq := range run.Quotas {
		names[cq] = true
	}
	for _, w := range run.Workloads {
		if w.ClusterQueue != "" {
			names[w.ClusterQueue] = true
		}
	}
	hours := run.End.Hours()
	var out []ClusterQueue
	for _, name := range sortedKeys(names) {
		cq := ClusterQueue{Name: name, Cohort: run.Cohorts[name], Weight: Weight(run.Weights, name)}
		keys := map[FR]bool{}
		for _, k := range tl.CQs.list {
			if k.Group == name {
				keys[FR{k.Flavor, k.Resource}] = true
			}
		}
		for _, k := range sortedFR(keys) {
			nominal := run.Quotas[name][k.Flavor][k.Resource]
			g := GFR{name, k.Flavor, k.Resource}
			i := tl.CQs.idx[g]
			used := func(s Segment) float64 { return s.CQ[i] }
			borrowed := func(s Segment) float64 { return math.Max(0, s.CQ[i]-nominal) }
			q := QuotaUsage{Flavor: k.Flavor, Resource: k.Resource, Nominal: nominal,
				UsedHours: tl.Integral(used) / 3600, PeakUsed: tl.Peak(used),
				BorrowedHours: tl.Integral(borrowed) / 3600, PeakBorrowed: tl.Peak(borrowed)}
			for j, s := range tl.Segments {
				v := tl.Lent[j][i]
				q.LentHours += v * s.Seconds() / 3600
				q.PeakLent = math.Max(q.PeakLent, v)
			}
			if hours > 0 {
				q.AverageUsed = q.UsedHours / hours
			}
			cq.Resources = append(cq.Resources, q)
		}
		for _, w := range run.Workloads {
			if w.ClusterQueue != name {
				continue
			}
			cq.Workloads++
			cq.Admissions += len(w.Admissions)
			cq.Preemptions += len(w.Preemptions)
			if PendingAtEnd(w) {
				cq.PendingAtEnd++
			}
		}
		out = append(out, cq)
	}
	return out
}

// lending apportions, in every segment, what each cohort borrows to its
// ClusterQueues' unused nominal quota, in proportion to the unused amounts.
// Values are indexed like the timeline's ClusterQueue series.
func lending(run *record.Run, tl *Timeline) [][]float64 {
	// groups are the series of one cohort's flavor and resource.
	type member struct {
		i       int
		nominal float64
	}
	groups := map[string][]member{}
	for i, k := range tl.CQs.list {
		if cohort := run.Cohorts[k.Group]; cohort != "" {
			key := cohort + "\x00" + k.Flavor + "\x00" + k.Resource
			groups[key] = append(groups[key], member{i, run.Quotas[k.Group][k.Flavor][k.Resource]})
		}
	}
	out := make([][]float64, len(tl.Segments))
	for j, s := range tl.Segments {
		out[j] = make([]float64, len(tl.CQs.list))
		for _, members := range groups {
			borrowed, unused := 0.0, 0.0
			for _, m := range members {
				borrowed += math.Max(0, s.CQ[m.i]-m.nominal)
				unused += math.Max(0, m.nominal-s.CQ[m.i])
			}
			if borrowed == 0 || unused == 0 {
				continue
			}
			frac := math.Min(1, borrowed/unused)
			for _, m := range members {
				if free := m.nominal - s.CQ[m.i]; free > 0 {
					out[j][m.i] = free * frac
				}
			}
		}
	}
	return out
}

// Teams is each team's (namespace's) use of the cluster.
func Teams(run *record.Run, tl *Timeline) []Team {
	byName := map[string]*Team{}
	cqs := map[string]map[string]bool{}
	var names []string
	for _, w := range run.Workloads {
		t := byName[w.Team]
		if t == nil {
			t = &Team{Name: w.Team}
			byName[w.Team] = t
			cqs[w.Team] = map[string]bool{}
			names = append(names, w.Team)
		}
		t.Workloads++
		if w.Admitted() {
			t.Admitted++
		}
		if len(w.Preemptions) > 0 {
			t.Preempted++
		}
		if w.Refused != nil {
			t.Refused++
		}
		if w.ClusterQueue != "" {
			cqs[w.Team][w.ClusterQueue] = true
		}
	}
	sort.Strings(names)
	hours := run.End.Hours()
	out := make([]Team, 0, len(names))
	for _, name := range names {
		t := byName[name]
		t.ClusterQueues = sortedKeys(cqs[name])
		keys := map[FR]bool{}
		for _, k := range tl.Teams.list {
			if k.Group == name {
				keys[FR{k.Flavor, k.Resource}] = true
			}
		}
		for _, k := range sortedFR(keys) {
			i := tl.Teams.idx[GFR{name, k.Flavor, k.Resource}]
			at := func(s Segment) float64 { return s.Team[i] }
			u := TeamUsage{Flavor: k.Flavor, Resource: k.Resource, UsedHours: tl.Integral(at) / 3600, PeakUsed: tl.Peak(at)}
			if hours > 0 {
				u.AverageUsed = u.UsedHours / hours
			}
			t.Resources = append(t.Resources, u)
		}
		out = append(out, *t)
	}
	return out
}

// PendingAtEnd tells whether w was waiting for admission when the run
// ended: not refused, not ended, and every admission it had was ended by a
// preemption or eviction.
func PendingAtEnd(w *record.Workload) bool {
	if w.Refused != nil || w.Finished != nil || w.Deleted != nil {
		return false
	}
	return len(w.Admissions) <= len(w.Preemptions)+len(w.Evictions)
}

// Weight is a fair-sharing weight, 1 when the header has none.
func Weight(weights map[string]float64, cq string) float64 {
	if w, ok := weights[cq]; ok {
		return w
	}
	return 1
}

func sortedFR(m map[FR]bool) []FR {
	out := make([]FR, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Flavor != out[j].Flavor {
			return out[i].Flavor < out[j].Flavor
		}
		return out[i].Resource < out[j].Resource
	})
	return out
}
