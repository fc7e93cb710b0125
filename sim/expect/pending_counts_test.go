package expect

import (
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kueue-sim/kueue-sim/scenarios"
	"github.com/kueue-sim/kueue-sim/sim/record"
)

// countsLog is a hand-made log of Kueue's pending counts: ClusterQueue
// best-effort has one active at 0, two inadmissible from 1m, none from
// 5m; ClusterQueue standard none from 0; the run ends at 10m.
func countsLog() *record.Run {
	ev := func(m float64, cq string, active, inadmissible int) record.Event {
		return record.Event{T: mins(m), Type: record.TypePendingCounts, ClusterQueue: cq,
			Counts: &record.PendingCounts{Active: active, Inadmissible: inadmissible}}
	}
	return record.Build([]record.Event{
		ev(0, "best-effort", 1, 0), ev(0, "standard", 0, 0), ev(1, "best-effort", 0, 2), ev(5, "best-effort", 0, 0),
		{T: mins(10), Type: record.TypeEnd},
	})
}

// The counts at a time are the latest recorded at or before it; a count
// not given is not checked; the message gives both counts and when they
// were recorded, and what was wanted where one differs.
func TestPendingCounts(t *testing.T) {
	at := func(m float64) *metav1.Duration {
		return &metav1.Duration{Duration: time.Duration(m * float64(time.Minute))}
	}
	for _, tc := range []struct {
		name   string
		run    *record.Run
		x      scenarios.PendingCountsExpectation
		passed bool
		says   string
	}{
		{"both hold", countsLog(), scenarios.PendingCountsExpectation{ClusterQueue: "best-effort", At: at(3), Active: i32(0), Inadmissible: i32(2)}, true,
			"ClusterQueue best-effort at 3m0s: 0 active, 2 inadmissible pending (as of 1m0s)"},
		{"at the instant", countsLog(), scenarios.PendingCountsExpectation{ClusterQueue: "best-effort", At: at(1), Inadmissible: i32(2)}, true,
			"0 active, 2 inadmissible pending (as of 1m0s)"},
		{"before the change", countsLog(), scenarios.PendingCountsExpectation{ClusterQueue: "best-effort", At: at(0.5), Active: i32(1)}, true,
			"1 active, 0 inadmissible pending (as of 0s)"},
		{"one differs", countsLog(), scenarios.PendingCountsExpectation{ClusterQueue: "best-effort", At: at(6), Active: i32(0), Inadmissible: i32(2)}, false,
			"ClusterQueue best-effort at 6m0s: 0 active, 0 inadmissible pending (as of 5m0s), want 2 inadmissible"},
		{"both differ", countsLog(), scenarios.PendingCountsExpectation{ClusterQueue: "standard", At: at(2), Active: i32(1), Inadmissible: i32(1)}, false,
			"ClusterQueue standard at 2m0s: 0 active, 0 inadmissible pending (as of 0s), want 1 active and 1 inadmissible"},
		{"a ClusterQueue the log never counts", countsLog(), scenarios.PendingCountsExpectation{ClusterQueue: "other", At: at(2), Active: i32(0)}, false,
			"ClusterQueue other at 2m0s: no pending counts: the log records none for it (was Kueue run in process?)"},
		{"a log without counts", (&wlog{}).end(10), scenarios.PendingCountsExpectation{ClusterQueue: "standard", At: at(2), Active: i32(0)}, false,
			"no pending counts: the log records no pending counts (Kueue was not in process, or the log predates them)"},
		{"after the run's end", countsLog(), scenarios.PendingCountsExpectation{ClusterQueue: "other", At: at(20), Active: i32(0)}, false,
			"no pending counts: the run ended at 10m0s, before it"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &scenarios.Scenario{Expectations: []scenarios.Expectation{{Name: "e", PendingCounts: &tc.x}}}
			r := Evaluate(s, tc.run)[0]
			if r.Passed != tc.passed || r.Check != "pendingCounts" {
				t.Errorf("passed %v (%s), want %v: %s", r.Passed, r.Check, tc.passed, r.Message)
			}
			if !strings.Contains(r.Message, tc.says) {
				t.Errorf("message lacks %q:\n%s", tc.says, r.Message)
			}
		})
	}
}
