package reports

import (
	"sort"
	"strings"
)

// Metric is one number of a report that `sim compare` follows.
type Metric struct {
	Name   string            `json:"name"`
	Labels map[string]string `json:"labels,omitempty"`
	Value  float64           `json:"value"`
}

// ID is the metric's name with its labels, e.g.
// utilization{flavor=a100,resource=nvidia.com/gpu}.
func (m Metric) ID() string {
	if len(m.Labels) == 0 {
		return m.Name
	}
	parts := make([]string, 0, len(m.Labels))
	for _, k := range sortedKeys(m.Labels) {
		parts = append(parts, k+"="+m.Labels[k])
	}
	return m.Name + "{" + strings.Join(parts, ",") + "}"
}

// MetricKind describes one metric name: its unit and which way is better.
type MetricKind struct {
	Name string
	// Unit: ratio (0..1, shown as %), index (0..1), seconds, count, hours
	// or share (Kueue's weighted share: 1000 = a cohort's lendable quota).
	Unit string
	// Better is +1 when higher is better, -1 when lower is better, 0 when
	// any change matters.
	Better int
	// Labels are the label names the metric may carry.
	Labels []string
	Help   string
}

// MetricKinds lists every metric a report yields, in display order.
var MetricKinds = []MetricKind{
	{"expectations_failed", "count", -1, nil, "expectations that failed"},
	{"utilization", "ratio", +1, []string{"flavor", "resource"}, "resource-hours admitted / capacity × run length"},
	{"used_hours", "hours", 0, []string{"flavor", "resource"}, "resource-hours admitted (the report's resource: GPUs)"},
	{"queue_wait_seconds", "seconds", -1, []string{"stat", "team", "kind"}, "arrival to first admission; stat is p50, p90, p99, max or mean; no team or kind label: all workloads"},
	{"pending_at_end", "count", -1, nil, "workloads still waiting for admission at the end"},
	{"admissions", "count", 0, nil, "admissions, re-admissions included"},
	{"finished", "count", +1, nil, "workloads that succeeded"},
	{"failed", "count", -1, nil, "workloads that failed"},
	{"preemptions", "count", -1, nil, "preemptions"},
	{"preemptions_by_reason", "count", -1, []string{"reason"}, "preemptions with one Kueue reason"},
	{"evictions", "count", -1, nil, "evictions other than preemption"},
	{"refusals", "count", 0, nil, "workloads refused by admission webhooks"},
	{"off_flavor_pods", "count", -1, nil, "pods placed on nodes without their flavor's labels"},
	{"fair_share_gap", "share", -1, []string{"cohort", "stat"}, "how far a cohort member with waiting workloads trailed another's weighted share as Kueue published it (status.fairSharing.weightedShare; 1000 = the cohort's lendable quota at weight 1); stat is max, or mean over the time with workloads waiting; only for logs with weighted shares"},
	{"borrowed_hours", "hours", 0, []string{"cluster_queue", "resource"}, "resource-hours used above nominal quota"},
}

// Kind returns the MetricKind of a metric name.
func Kind(name string) (MetricKind, bool) {
	for _, k := range MetricKinds {
		if k.Name == name {
			return k, true
		}
	}
	return MetricKind{}, false
}

// Metrics flattens the report into the numbers `sim compare` follows,
// sorted by MetricKinds' order, then ID.
func (r *Report) Metrics() []Metric {
	var out []Metric
	add := func(name string, v float64, labels ...string) {
		m := Metric{Name: name, Value: v}
		if len(labels) > 0 {
			m.Labels = map[string]string{}
			for i := 0; i+1 < len(labels); i += 2 {
				m.Labels[labels[i]] = labels[i+1]
			}
		}
		out = append(out, m)
	}
	t := r.Totals
	add("expectations_failed", float64(t.ExpectationsFailed))
	for _, f := range r.Flavors {
		if f.Capacity > 0 {
			add("utilization", f.Utilization, "flavor", f.Flavor, "resource", f.Resource)
		}
		if f.Resource == r.Resource {
			add("used_hours", f.UsedHours, "flavor", f.Flavor, "resource", f.Resource)
		}
	}
	for _, w := range r.Waits {
		var scope []string
		switch {
		case w.Team != "":
			scope = []string{"team", w.Team}
		case w.Kind != "":
			scope = []string{"kind", w.Kind}
		}
		for _, s := range []struct {
			stat string
			v    float64
		}{{"p50", w.P50}, {"p90", w.P90}, {"p99", w.P99}, {"max", w.Max}, {"mean", w.Mean}} {
			add("queue_wait_seconds", s.v, append([]string{"stat", s.stat}, scope...)...)
		}
	}
	add("pending_at_end", float64(t.PendingAtEnd))
	add("admissions", float64(t.Admissions))
	add("finished", float64(t.Finished))
	add("failed", float64(t.Failed))
	add("preemptions", float64(t.Preemptions))
	for _, p := range r.Preemptions {
		add("preemptions_by_reason", float64(p.Count), "reason", p.Reason)
	}
	add("evictions", float64(t.Evictions))
	add("refusals", float64(t.Refused))
	add("off_flavor_pods", float64(t.OffFlavorPods))
	for _, f := range r.Fairness {
		if f.SharesObserved {
			add("fair_share_gap", f.MaxGap, "cohort", f.Cohort, "stat", "max")
			add("fair_share_gap", f.MeanGap, "cohort", f.Cohort, "stat", "mean")
		}
	}
	for _, cq := range r.ClusterQueues {
		sum := map[string]float64{}
		for _, q := range cq.Resources {
			sum[q.Resource] += q.BorrowedHours
		}
		for _, res := range sortedKeys(sum) {
			if res == r.Resource {
				add("borrowed_hours", sum[res], "cluster_queue", cq.Name, "resource", res)
			}
		}
	}
	order := map[string]int{}
	for i, k := range MetricKinds {
		order[k.Name] = i
	}
	sort.SliceStable(out, func(i, j int) bool {
		if order[out[i].Name] != order[out[j].Name] {
			return order[out[i].Name] < order[out[j].Name]
		}
		return out[i].ID() < out[j].ID()
	})
	return out
}

// SharesObserved tells whether the run's log held Kueue's weighted shares
// of some cohort's members: logs recorded before kueue-sim observed them
// have none, and then fairness cannot be compared.
func (r *Report) SharesObserved() bool {
	for _, f := range r.Fairness {
		if f.SharesObserved {
			return true
		}
	}
	return false
}
