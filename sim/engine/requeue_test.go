package engine

import (
	"context"
	"testing"
	"time"
)

// fakeRequeues counts Process calls; idle is what Idle answers.
type fakeRequeues struct {
	idle      bool
	processed int
}

func (f *fakeRequeues) Period() time.Duration           { return time.Second }
func (f *fakeRequeues) Pending() []string               { return nil }
func (f *fakeRequeues) Process(ctx context.Context) int { f.processed++; return 0 }
func (f *fakeRequeues) Idle() bool                      { return f.idle }

var _ Requeues = (*fakeRequeues)(nil)

// A requeue instant is not a step when it is all that is due at its time
// and Kueue has nothing pending: the engine clears Kueue's requests there
// and goes on. Anything else at that time, or a pending workload, keeps
// the step.
func TestIdleRequeueIsNotAStep(t *testing.T) {
	sec := func(s int) time.Duration { return time.Duration(s) * time.Second }
	for _, tc := range []struct {
		name  string
		items []*item
		idle  bool
		skip  bool
	}{
		{name: "requeue alone, Kueue idle", items: []*item{{at: sec(5), act: actRequeue}, {at: sec(60), act: actFinish}}, idle: true, skip: true},
		{name: "requeue alone at the end", items: []*item{{at: sec(5), act: actRequeue}}, idle: true, skip: true},
		{name: "Kueue holds pending workloads", items: []*item{{at: sec(5), act: actRequeue}}, idle: false},
		{name: "an arrival at the same time", items: []*item{{at: sec(5), act: actArrive}, {at: sec(5), act: actRequeue}}, idle: true},
		{name: "a finish at the same time, pushed first", items: []*item{{at: sec(5), act: actFinish}, {at: sec(9), act: actArrive}, {at: sec(5), act: actRequeue}}, idle: true},
		{name: "a finish at the same time, pushed after", items: []*item{{at: sec(9), act: actArrive}, {at: sec(5), act: actRequeue}, {at: sec(7), act: actArrive}, {at: sec(5), act: actFinish}}, idle: true},
		{name: "the next instant is no requeue", items: []*item{{at: sec(5), act: actArrive}, {at: sec(6), act: actRequeue}}, idle: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &fakeRequeues{idle: tc.idle}
			r := &Runner{t: Target{Requeues: f}, requeuePlanned: true}
			for _, it := range tc.items {
				r.queue.push(it)
			}
			left := len(r.queue.items)
			if got := r.skipIdleRequeue(context.Background()); got != tc.skip {
				t.Fatalf("skipIdleRequeue = %v, want %v", got, tc.skip)
			}
			if !tc.skip {
				if f.processed != 0 || len(r.queue.items) != left || !r.requeuePlanned {
					t.Errorf("not skipped, yet Process ran %d times, %d of %d items left, requeue planned %v", f.processed, len(r.queue.items), left, r.requeuePlanned)
				}
				return
			}
			if f.processed != 1 || len(r.queue.items) != left-1 || r.requeuePlanned {
				t.Errorf("skipped: Process ran %d times (want 1), %d of %d items left (want one fewer), requeue planned %v (want false)", f.processed, len(r.queue.items), left, r.requeuePlanned)
			}
			for _, it := range r.queue.items {
				if it.act == actRequeue {
					t.Errorf("the requeue instant is still queued")
				}
			}
		})
	}
}
