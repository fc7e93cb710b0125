package metrics

import (
	"testing"
	"time"

	"github.com/kueue-sim/kueue-sim/sim/record"
)

// The counts at T are the latest recorded at or before T, later in the
// log winning at one instant; nothing before the first or for another
// ClusterQueue.
func TestPendingCountsAt(t *testing.T) {
	ev := func(s int, cq string, active, inadmissible int) record.Event {
		return record.Event{T: record.Duration(time.Duration(s) * time.Second), Type: record.TypePendingCounts, ClusterQueue: cq,
			Counts: &record.PendingCounts{Active: active, Inadmissible: inadmissible}}
	}
	run := record.Build([]record.Event{
		ev(10, "a", 1, 0), ev(10, "b", 0, 4), ev(60, "a", 0, 2), ev(60, "a", 0, 3), ev(120, "a", 0, 0),
	})
	for _, tc := range []struct {
		cq    string
		at    int
		want  record.PendingCounts
		since int
		ok    bool
	}{
		{"a", 5, record.PendingCounts{}, 0, false},
		{"a", 10, record.PendingCounts{Active: 1}, 10, true},
		{"a", 59, record.PendingCounts{Active: 1}, 10, true},
		{"a", 60, record.PendingCounts{Inadmissible: 3}, 60, true},
		{"a", 600, record.PendingCounts{}, 120, true},
		{"b", 600, record.PendingCounts{Inadmissible: 4}, 10, true},
		{"c", 600, record.PendingCounts{}, 0, false},
	} {
		got, since, ok := PendingCountsAt(run, tc.cq, time.Duration(tc.at)*time.Second)
		if got != tc.want || since != time.Duration(tc.since)*time.Second || ok != tc.ok {
			t.Errorf("%s at %ds: %+v since %s, %v; want %+v since %ds, %v", tc.cq, tc.at, got, since, ok, tc.want, tc.since, tc.ok)
		}
	}
	if !HasPendingCounts(run) || HasPendingCounts(record.Build(nil)) {
		t.Error("HasPendingCounts")
	}
}
