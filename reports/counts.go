package reports

import (
	"sort"

	"github.com/kueue-sim/kueue-sim/sim/metrics"
	"github.com/kueue-sim/kueue-sim/sim/record"
)

// ReasonCount counts preemptions or evictions with one Kueue reason.
type ReasonCount struct {
	Reason string `json:"reason"`
	Count  int    `json:"count"`
	// Meaning is the reason in plain words.
	Meaning string `json:"meaning"`
}

// Refusal counts the workloads of one team and kind that a webhook
// refused, with one of the refusal messages.
type Refusal struct {
	Team    string `json:"team"`
	Kind    string `json:"kind"`
	Count   int    `json:"count"`
	Message string `json:"message"`
}

func totals(run *record.Run) Totals {
	t := Totals{Workloads: len(run.Workloads)}
	for _, w := range run.Workloads {
		if w.Admitted() {
			t.Admitted++
		}
		t.Admissions += len(w.Admissions)
		if w.Refused != nil {
			t.Refused++
		}
		if len(w.Preemptions) > 0 {
			t.Preempted++
		}
		t.Preemptions += len(w.Preemptions)
		t.Evictions += len(w.Evictions)
		if w.Finished != nil {
			if w.Finished.Reason == "Failed" {
				t.Failed++
			} else {
				t.Finished++
			}
		}
		if metrics.PendingAtEnd(w) {
			t.PendingAtEnd++
		} else if w.Refused == nil && w.Finished == nil && w.Deleted == nil {
			t.RunningAtEnd++
		}
		for _, p := range w.Placements {
			if p.FlavorMatch != nil && !*p.FlavorMatch {
				t.OffFlavorPods++
			}
		}
	}
	return t
}

// reasonCounts counts preemptions and evictions by Kueue's reason.
func reasonCounts(run *record.Run) (preemptions, evictions []ReasonCount) {
	p, e := map[string]int{}, map[string]int{}
	for _, w := range run.Workloads {
		for _, ev := range w.Preemptions {
			p[ev.Reason]++
		}
		for _, ev := range w.Evictions {
			e[ev.Reason]++
		}
	}
	list := func(m map[string]int) []ReasonCount {
		out := []ReasonCount{}
		for _, r := range sortedKeys(m) {
			out = append(out, ReasonCount{Reason: r, Count: m[r], Meaning: reasonMeaning(r)})
		}
		return out
	}
	return list(p), list(e)
}

// refusals groups webhook refusals by team and kind.
func refusals(run *record.Run) []Refusal {
	type key struct{ team, kind string }
	byKey := map[key]*Refusal{}
	for _, w := range run.Workloads {
		if w.Refused == nil {
			continue
		}
		k := key{w.Team, w.Kind}
		r := byKey[k]
		if r == nil {
			r = &Refusal{Team: w.Team, Kind: w.Kind, Message: w.Refused.Message}
			byKey[k] = r
		}
		r.Count++
	}
	out := []Refusal{}
	for _, r := range byKey {
		out = append(out, *r)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Team != out[j].Team {
			return out[i].Team < out[j].Team
		}
		return out[i].Kind < out[j].Kind
	})
	return out
}
