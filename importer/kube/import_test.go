package kube

import "testing"

func TestMarkedSentences(t *testing.T) {
	for _, tc := range []struct {
		description, inferred, incomplete string
	}{
		{"Replays 7 Kueue Workloads.", "", ""},
		{"Inferred: node pool default (64 cpu, spec.priority); 2 LocalQueues. Replays 7.", "node pool default (64 cpu, spec.priority); 2 LocalQueues", ""},
		{"Incomplete: the scenario lacks (forbidden: list nodes). Inferred: 1 node pool. Imported.", "1 node pool", "the scenario lacks (forbidden: list nodes)"},
		{"Inferred: at the end.", "at the end", ""},
	} {
		inferred, incomplete := MarkedSentences(tc.description)
		if inferred != tc.inferred || incomplete != tc.incomplete {
			t.Errorf("MarkedSentences(%q) = %q, %q; want %q, %q", tc.description, inferred, incomplete, tc.inferred, tc.incomplete)
		}
	}
}
