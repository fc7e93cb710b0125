package kueuesetup

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/go-logr/logr"
	clocktesting "k8s.io/utils/clock/testing"
	schdcache "sigs.k8s.io/kueue/pkg/cache/scheduler"
	kwait "sigs.k8s.io/kueue/pkg/util/wait"
)

// kueueCycle is Kueue's own scheduling cycle: it takes the heads of the
// queue manager and, for a ClusterQueue its cache does not know, leaves the
// workload pending with Kueue's message and asks to slow down.
func TestCycleLoopRunsKueuesCycle(t *testing.T) {
	g := &SchedulerGate{checker: allActive{}}
	cq, lq := testQueue("cq")
	m := testQueues(t, g, cq, lq)
	wl := testWorkload("a")
	if err := m.AddOrUpdateWorkload(logr.Discard(), wl); err != nil {
		t.Fatal(err)
	}
	c := testClient(t, wl)
	s, events := newTestScheduler(m, schdcache.New(c), c, 10)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if got := kueueCycle(s, ctx); got != kwait.SlowDown {
		t.Errorf("kueueCycle() = %v, want SlowDown (nothing admitted)", got)
	}
	select {
	case e := <-events:
		if !strings.Contains(e, "ClusterQueue cq not found") {
			t.Errorf("Kueue's event = %q, want its message for an unknown ClusterQueue", e)
		}
	default:
		t.Error("Kueue's cycle recorded no Pending event")
	}
}

// The loop sleeps Kueue's backoff after a cycle that admits nothing, and
// goes on at once when NoBackoff is on or the cycle admitted something.
func TestCycleLoopBackoff(t *testing.T) {
	for _, tc := range []struct {
		name      string
		noBackoff bool
		signal    kwait.SpeedSignal
		waits     bool
	}{
		{"admits nothing: backs off", false, kwait.SlowDown, true},
		{"admits: goes on", false, kwait.KeepGoing, false},
		{"no backoff: goes on", true, kwait.SlowDown, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := &SchedulerGate{}
			g.NoBackoff(tc.noBackoff)
			calls := make(chan struct{})
			fc := clocktesting.NewFakeClock(time.Now())
			l := &cycleLoop{gate: g, clock: fc, cycle: func(ctx context.Context) kwait.SpeedSignal {
				select {
				case calls <- struct{}{}:
				case <-ctx.Done():
				}
				return tc.signal
			}}
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan struct{})
			go func() { l.run(ctx); close(done) }()
			defer func() { cancel(); <-done }()

			<-calls
			if !tc.waits {
				for range 5 {
					<-calls
				}
				if fc.HasWaiters() {
					t.Error("the loop set a backoff timer")
				}
				return
			}
			for !fc.HasWaiters() {
				time.Sleep(time.Millisecond)
			}
			select {
			case <-calls:
				t.Fatal("the next cycle began before the backoff")
			case <-time.After(20 * time.Millisecond):
			}
			fc.Step(cycleBackoffInitial)
			<-calls
		})
	}
}
