package upgrade

import (
	"fmt"
	"sort"
	"strings"

	"github.com/kueue-sim/kueue-sim/sim/record"
)

// releases names the two releases in the changes' texts.
type releases struct{ from, to string }

// changes lists how to's story departs from from's. A difference that
// explains the rest stands alone: a workload refused, or never admitted,
// under one release has no preemptions, evictions or finish to compare,
// and listing their absence would bury the cause.
func (r releases) changes(from, to *Story) []Change {
	switch {
	case from == nil:
		return []Change{{At: to.Arrived, Kind: Absent, Text: "absent under " + r.from}}
	case to == nil:
		return []Change{{At: from.Arrived, Kind: Absent, Text: "absent under " + r.to}}
	}
	var out []Change
	if from.Arrived != to.Arrived {
		out = append(out, Change{At: min(from.Arrived, to.Arrived), Kind: Arrival, Text: shift("arrived", to.Arrived, from.Arrived, "at")})
	}
	if from.Refused != nil || to.Refused != nil {
		if c, ok := r.refusal(from, to); ok {
			out = append(out, c)
		}
		return out
	}
	switch {
	case !from.Admitted() && !to.Admitted():
		return out
	case !to.Admitted():
		return append(out, Change{At: from.Admissions[0].T, Kind: NeverAdmitted, Text: "never admitted under " + r.to})
	case !from.Admitted():
		a := to.Admissions[0].T
		return append(out, Change{At: a, Kind: NeverAdmitted, Text: fmt.Sprintf("admitted under %s only (waited %s)", r.to, short(a-to.Arrived))})
	}
	out = append(out, admissions(from, to)...)
	out = append(out, r.endings("preempted", Preemption, from.Preemptions, to.Preemptions)...)
	out = append(out, r.endings("evicted", Eviction, from.Evictions, to.Evictions)...)
	if c, ok := r.finish(from, to); ok {
		out = append(out, c)
	}
	if from.PendingAtEnd != to.PendingAtEnd {
		s, release := to, r.to
		if from.PendingAtEnd {
			s, release = from, r.from
		}
		out = append(out, Change{At: lastEnd(s), Kind: Pending, Text: "pending again at the end under " + release + " only"})
	}
	return out
}

// refusal compares the webhooks' verdicts on a workload refused in at
// least one run.
func (r releases) refusal(from, to *Story) (Change, bool) {
	f, t := from.Refused, to.Refused
	switch {
	case f == nil:
		return Change{At: t.T, Kind: Refusal, Text: fmt.Sprintf("refused under %s only: %s", r.to, refusal(*t))}, true
	case t == nil:
		return Change{At: f.T, Kind: Refusal, Text: fmt.Sprintf("refused under %s only: %s", r.from, refusal(*f))}, true
	case refusal(*f) != refusal(*t):
		return Change{At: min(f.T, t.T), Kind: Refusal, Text: fmt.Sprintf("refused for another reason: %s vs %s", refusal(*t), refusal(*f))}, true
	}
	return Change{}, false
}

// admissions compares two admitted workloads' admissions: the first time
// they part (later ones follow from it), each admission's ClusterQueue
// and flavors, and how many there were.
func admissions(from, to *Story) []Change {
	var out []Change
	fa, ta := from.Admissions, to.Admissions
	n := min(len(fa), len(ta))
	for i := 0; i < n; i++ {
		if fa[i].T == ta[i].T {
			continue
		}
		at := min(fa[i].T, ta[i].T)
		if i == 0 {
			out = append(out, Change{At: at, Kind: AdmissionTime,
				Text: shift("admitted", ta[0].T-to.Arrived, fa[0].T-from.Arrived, "waited")})
		} else {
			out = append(out, Change{At: at, Kind: AdmissionTime,
				Text: fmt.Sprintf("admission %d: %s", i+1, shift("admitted", ta[i].T, fa[i].T, "at"))})
		}
		break
	}
	for i := 0; i < n; i++ {
		prefix := ""
		if i > 0 {
			prefix = fmt.Sprintf("admission %d: ", i+1)
		}
		at := min(fa[i].T, ta[i].T)
		if fa[i].ClusterQueue != ta[i].ClusterQueue {
			out = append(out, Change{At: at, Kind: Placement, Text: fmt.Sprintf("%sClusterQueue %s -> %s", prefix, fa[i].ClusterQueue, ta[i].ClusterQueue)})
		}
		resources := map[string]bool{}
		for res := range fa[i].Flavors {
			resources[res] = true
		}
		for res := range ta[i].Flavors {
			resources[res] = true
		}
		for _, res := range sortedKeys(resources) {
			f, t := fa[i].Flavors[res], ta[i].Flavors[res]
			if f != t {
				out = append(out, Change{At: at, Kind: Placement, Text: fmt.Sprintf("%sflavor %s: %s -> %s", prefix, res, orNone(f), orNone(t))})
			}
		}
	}
	if len(fa) != len(ta) {
		longer := fa
		if len(ta) > len(fa) {
			longer = ta
		}
		out = append(out, Change{At: longer[n].T, Kind: Admissions, Text: fmt.Sprintf("admitted %s vs %d", count(len(ta), "time"), len(fa))})
	}
	return out
}

// endings compares preemptions (or evictions): how many, and Kueue's
// reasons. Their times follow from the admissions' and are left to the
// stories.
func (r releases) endings(verb string, kind ChangeKind, from, to []Moment) []Change {
	fr, tr := reasonList(from), reasonList(to)
	if len(from) == len(to) && fr == tr {
		return nil
	}
	// The runs part at the first ending that differs.
	i := 0
	for i < len(from) && i < len(to) && from[i].Reason == to[i].Reason {
		i++
	}
	var at record.Duration
	switch {
	case i < len(from) && i < len(to):
		at = min(from[i].T, to[i].T)
	case i < len(from):
		at = from[i].T
	default:
		at = to[i].T
	}
	var text string
	switch {
	case len(from) == 0:
		text = fmt.Sprintf("%s%s (%s) under %s only", verb, times(len(to)), tr, r.to)
	case len(to) == 0:
		text = fmt.Sprintf("%s%s (%s) under %s only", verb, times(len(from)), fr, r.from)
	case len(from) == len(to):
		text = fmt.Sprintf("%s for %s vs %s", verb, tr, fr)
	case reasonSet(from) == reasonSet(to):
		text = fmt.Sprintf("%s %s vs %d (%s)", verb, count(len(to), "time"), len(from), reasonSet(to))
	default:
		text = fmt.Sprintf("%s %s vs %d (%s vs %s)", verb, count(len(to), "time"), len(from), tr, fr)
	}
	return []Change{{At: at, Kind: kind, Text: text}}
}

// times is "" for once, else " N times".
func times(n int) string {
	if n == 1 {
		return ""
	}
	return " " + count(n, "time")
}

// reasonList counts the reasons: "InClusterQueue ×2, InCohortReclamation".
func reasonList(ms []Moment) string {
	n := map[string]int{}
	for _, m := range ms {
		n[m.Reason]++
	}
	var parts []string
	for _, reason := range sortedKeys(n) {
		if n[reason] > 1 {
			parts = append(parts, fmt.Sprintf("%s ×%d", reason, n[reason]))
		} else {
			parts = append(parts, reason)
		}
	}
	return strings.Join(parts, ", ")
}

// reasonSet names the distinct reasons: "InClusterQueue, InCohortReclamation".
func reasonSet(ms []Moment) string {
	seen := map[string]bool{}
	for _, m := range ms {
		seen[m.Reason] = true
	}
	return strings.Join(sortedKeys(seen), ", ")
}

// finish compares how the workloads ended; when, it leaves to the stories.
func (r releases) finish(from, to *Story) (Change, bool) {
	f, t := from.Finished, to.Finished
	switch {
	case f == nil && t == nil:
		return Change{}, false
	case f == nil:
		return Change{At: t.T, Kind: Finish, Text: fmt.Sprintf("finished (%s) under %s only", t.Reason, r.to)}, true
	case t == nil:
		return Change{At: f.T, Kind: Finish, Text: fmt.Sprintf("finished (%s) under %s only", f.Reason, r.from)}, true
	case f.Reason != t.Reason:
		return Change{At: min(f.T, t.T), Kind: Finish, Text: fmt.Sprintf("finished %s vs %s", t.Reason, f.Reason)}, true
	}
	return Change{}, false
}

// shift says how much later or earlier something happened under the new
// release: "admitted 35m later (waited 1h5m vs 30m)".
func shift(what string, to, from record.Duration, label string) string {
	d, dir := to-from, "later"
	if d < 0 {
		d, dir = -d, "earlier"
	}
	return fmt.Sprintf("%s %s %s (%s %s vs %s)", what, short(d), dir, label, short(to), short(from))
}

// lastEnd is when s's last tenure ended: its last preemption or eviction.
func lastEnd(s *Story) record.Duration {
	var ends []record.Duration
	for _, m := range append(append([]Moment{}, s.Preemptions...), s.Evictions...) {
		ends = append(ends, m.T)
	}
	if len(ends) == 0 {
		return s.Arrived
	}
	sort.Slice(ends, func(i, j int) bool { return ends[i] < ends[j] })
	return ends[len(ends)-1]
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
