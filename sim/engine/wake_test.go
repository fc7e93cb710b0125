package engine

import "testing"

func TestReconcilesFirst(t *testing.T) {
	for _, tc := range []struct {
		name  string
		fired fired
		afs   bool
		acts  []action
		want  bool
	}{
		{"nothing", fired{}, false, nil, false},
		{"wakes alone", fired{wakes: 2}, false, []action{actWake, actWake}, false},
		{"nothing fired", fired{}, true, []action{actArrive, actFinish}, false},
		{"a wake and an end of run", fired{wakes: 1}, false, []action{actFinish, actWake}, true},
		{"a wake asked for after the instant was planned, and an arrival", fired{wakes: 1}, false, []action{actArrive}, true},
		{"a wake and a requeue", fired{wakes: 1}, false, []action{actRequeue, actWake}, true},
		{"a status batch and an end of run", fired{timers: 3}, false, []action{actFinish}, false},
		{"a status batch and an end of run, admission fair sharing on", fired{timers: 3}, true, []action{actFinish}, true},
	} {
		var items []*item
		for _, a := range tc.acts {
			items = append(items, &item{act: a})
		}
		r := &Runner{t: Target{AdmissionFairSharing: tc.afs}}
		if got := r.reconcilesFirst(tc.fired, items); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}
