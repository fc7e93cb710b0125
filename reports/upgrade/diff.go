package upgrade

import (
	"sort"
	"strconv"

	"github.com/kueue-sim/kueue-sim/sim/record"
)

// ChangeKind classifies a change, so that a report can count the
// workloads each kind of change touches.
type ChangeKind string

// Kinds of change, in the order the reports count them.
const (
	// Absent: the workload is in one run only.
	Absent ChangeKind = "absent"
	// Arrival: it arrived at another time.
	Arrival ChangeKind = "arrival"
	// Refusal: a webhook refused it in one run only, or for another reason.
	Refusal ChangeKind = "refusal"
	// NeverAdmitted: admitted in one run only.
	NeverAdmitted ChangeKind = "neverAdmitted"
	// AdmissionTime: admitted (or admitted again) at another time.
	AdmissionTime ChangeKind = "admissionTime"
	// Placement: admitted into another ClusterQueue or onto another flavor.
	Placement ChangeKind = "placement"
	// Admissions: admitted another number of times.
	Admissions ChangeKind = "admissions"
	// Preemption and Eviction: preempted (evicted) another number of times
	// or for other reasons.
	Preemption ChangeKind = "preemption"
	Eviction   ChangeKind = "eviction"
	// Finish: finished in one run only, or with another outcome.
	Finish ChangeKind = "finish"
	// Pending: still pending at the end of one run only.
	Pending ChangeKind = "pending"
)

// changeKinds orders the kinds and says, in a few words, what a workload
// with a change of that kind did.
var changeKinds = []struct {
	kind ChangeKind
	text string
}{
	{Absent, "in one run only"},
	{Arrival, "arrived at another time"},
	{Refusal, "refused differently"},
	{NeverAdmitted, "admitted in one run only"},
	{AdmissionTime, "admitted at another time"},
	{Placement, "admitted onto another flavor or ClusterQueue"},
	{Admissions, "admitted another number of times"},
	{Preemption, "preempted differently"},
	{Eviction, "evicted differently"},
	{Finish, "finished differently"},
	{Pending, "pending at the end of one run only"},
}

// Change is one way a workload's decisions differ between the runs.
type Change struct {
	// At is when the runs part: the earlier of the two times compared.
	At   record.Duration `json:"at"`
	Kind ChangeKind      `json:"kind"`
	// Text says it for a person, e.g. "admitted 35m later (waited 1h5m vs
	// 30m)": "X vs Y" gives the new release's value first, "a -> b" goes
	// from the old release's to the new one's.
	Text string `json:"text"`
}

func (c Change) String() string { return c.Text }

// WorkloadDiff is one workload whose decisions differ between the runs:
// each run's story (nil where the workload is absent) and the changes, in
// time order.
type WorkloadDiff struct {
	Workload string   `json:"workload"`
	Stream   string   `json:"stream,omitempty"`
	Team     string   `json:"team,omitempty"`
	Changes  []Change `json:"changes"`
	From     *Story   `json:"from,omitempty"`
	To       *Story   `json:"to,omitempty"`
}

// At is when the runs first part for this workload.
func (d WorkloadDiff) At() record.Duration {
	if len(d.Changes) == 0 {
		return 0
	}
	return d.Changes[0].At
}

// Texts are the changes' texts.
func (d WorkloadDiff) Texts() []string {
	out := make([]string, len(d.Changes))
	for i, c := range d.Changes {
		out[i] = c.Text
	}
	return out
}

// DiffWorkloads compares every workload's stories under the two releases
// (fromRelease and toRelease name them in the changes' texts) and returns
// those that differ, sorted by when they first part, then by name. A
// workload in one run only differs too.
func DiffWorkloads(from, to map[string]Story, fromRelease, toRelease string) []WorkloadDiff {
	names := map[string]bool{}
	for n := range from {
		names[n] = true
	}
	for n := range to {
		names[n] = true
	}
	r := releases{from: fromRelease, to: toRelease}
	out := []WorkloadDiff{}
	for _, name := range sortedKeys(names) {
		f, fok := from[name]
		t, tok := to[name]
		d := WorkloadDiff{Workload: name}
		if fok {
			d.From = &f
			d.Stream, d.Team = f.Stream, f.Team
		}
		if tok {
			d.To = &t
			d.Stream, d.Team = t.Stream, t.Team
		}
		d.Changes = r.changes(d.From, d.To)
		if len(d.Changes) == 0 {
			continue
		}
		sort.SliceStable(d.Changes, func(i, j int) bool { return d.Changes[i].At < d.Changes[j].At })
		out = append(out, d)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].At() != out[j].At() {
			return out[i].At() < out[j].At()
		}
		return out[i].Workload < out[j].Workload
	})
	return out
}

// Tally counts the workloads each kind of change touches, in the kinds'
// order, as phrases: "2 admitted at another time".
func Tally(diffs []WorkloadDiff) []string {
	n := map[ChangeKind]int{}
	for _, d := range diffs {
		seen := map[ChangeKind]bool{}
		for _, c := range d.Changes {
			if !seen[c.Kind] {
				seen[c.Kind] = true
				n[c.Kind]++
			}
		}
	}
	var out []string
	for _, k := range changeKinds {
		if n[k.kind] > 0 {
			out = append(out, strconv.Itoa(n[k.kind])+" "+k.text)
		}
	}
	return out
}
