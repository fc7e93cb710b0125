package engine

import "testing"

func TestWakesAmongOthers(t *testing.T) {
	for _, tc := range []struct {
		name string
		acts []action
		want bool
	}{
		{"nothing", nil, false},
		{"wakes alone", []action{actWake, actWake}, false},
		{"no wake", []action{actArrive, actFinish, actRequeue}, false},
		{"a wake and an end of run", []action{actFinish, actWake}, true},
		{"a wake and an arrival", []action{actWake, actArrive}, true},
		{"a wake and a requeue", []action{actRequeue, actWake}, true},
	} {
		var items []*item
		for _, a := range tc.acts {
			items = append(items, &item{act: a})
		}
		if got := wakesAmongOthers(items); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}
