package engine

import (
	"slices"
	"testing"
	"time"
)

func TestAfterSimulatedFiresWhenSimulatedTimeReachesIt(t *testing.T) {
	c := &VirtualClock{}
	var fired []string
	at := func(name string) func() { return func() { fired = append(fired, name) } }
	c.Set(10 * time.Second)
	c.AfterSimulated(time.Second, at("a@11s"))
	c.AfterSimulated(3*time.Second, at("c@13s"))
	c.AfterSimulated(time.Second, at("b@11s"))
	c.AfterSimulated(2*time.Second, func() {
		// A timer reads the time it fires at, and may make another.
		if got := c.Elapsed(); got != 12*time.Second {
			t.Errorf("the timer for 12s fired at %v", got)
		}
		fired = append(fired, "12s")
		c.AfterSimulated(time.Second, at("from 12s@13s"))
	})

	c.Set(10*time.Second + 999*time.Millisecond)
	if len(fired) != 0 {
		t.Fatalf("fired before their time: %v", fired)
	}
	c.Set(12 * time.Second)
	if want := []string{"a@11s", "b@11s", "12s"}; !slices.Equal(fired, want) {
		t.Fatalf("at 12s fired %v, want %v", fired, want)
	}
	c.Set(5 * time.Second) // time never goes back; nothing is due
	c.Set(13 * time.Second)
	if want := []string{"a@11s", "b@11s", "12s", "c@13s", "from 12s@13s"}; !slices.Equal(fired, want) {
		t.Fatalf("at 13s fired %v, want %v", fired, want)
	}
	if len(c.timers) != 0 {
		t.Errorf("%d timers left after all fired", len(c.timers))
	}
}

func TestAfterSimulatedWaitsOnTheWallClockInRealtimeRuns(t *testing.T) {
	c := &VirtualClock{}
	c.WallTimers()
	fired := make(chan struct{})
	c.AfterSimulated(time.Millisecond, func() { close(fired) })
	select {
	case <-fired:
	case <-time.After(10 * time.Second):
		t.Fatal("a realtime run's timer did not fire on the wall clock while simulated time stood still")
	}
	if len(c.timers) != 0 {
		t.Errorf("a realtime run's timer waits for simulated time as well")
	}
}

// TestWakeAtIsAnInstant: WakeAt's timers are what NextWake reports, the
// earliest first, and fire as the clock reaches them even on a clock made
// for a realtime run (the engine paces those instants); AfterSimulated's
// timers are never reported; a time already reached fires at once; a
// cancelled one neither fires nor is reported.
func TestWakeAtIsAnInstant(t *testing.T) {
	c := &VirtualClock{}
	c.WallTimers()
	c.Set(10 * time.Second)
	if _, ok := c.NextWake(); ok {
		t.Fatal("a clock with no wakes reports one")
	}
	var fired []string
	c.WakeAt(70*time.Second, func() { fired = append(fired, "70s") })
	c.WakeAt(40*time.Second, func() { fired = append(fired, "40s") })
	c.AfterSimulated(time.Second, func() {})
	if at, ok := c.NextWake(); !ok || at != 40*time.Second {
		t.Fatalf("NextWake = %v, %v; want 40s", at, ok)
	}
	c.Set(40 * time.Second)
	if at, ok := c.NextWake(); !ok || at != 70*time.Second || !slices.Equal(fired, []string{"40s"}) {
		t.Fatalf("at 40s: fired %v, NextWake %v %v; want [40s] and 70s", fired, at, ok)
	}
	c.WakeAt(40*time.Second, func() { fired = append(fired, "late") })
	if !slices.Equal(fired, []string{"40s", "late"}) {
		t.Errorf("a wake for a time already reached did not fire at once: %v", fired)
	}
	cancel := c.WakeAt(60*time.Second, func() { fired = append(fired, "cancelled") })
	if at, _ := c.NextWake(); at != 60*time.Second {
		t.Fatalf("NextWake = %v, want 60s", at)
	}
	cancel()
	if at, _ := c.NextWake(); at != 70*time.Second {
		t.Errorf("after cancelling the 60s wake, NextWake = %v, want 70s", at)
	}
	c.Set(70 * time.Second)
	if _, ok := c.NextWake(); ok || !slices.Equal(fired, []string{"40s", "late", "70s"}) {
		t.Errorf("at 70s: fired %v, a wake still reported %v", fired, ok)
	}
}

// TestTimelineOnlyWakes: the timeline counts its wakes as they come and
// go, so the loop can tell that nothing but Kueue's waits is left.
func TestTimelineOnlyWakes(t *testing.T) {
	var q timeline
	if q.onlyWakes() {
		t.Fatal("an empty timeline holds only wakes")
	}
	q.push(&item{at: 5 * time.Second, act: actWake})
	q.push(&item{at: 3 * time.Second, act: actFinish})
	q.push(&item{at: 9 * time.Second, act: actWake})
	if q.onlyWakes() {
		t.Fatal("a timeline with a finish holds only wakes")
	}
	if got := q.popAt(3 * time.Second); len(got) != 1 || got[0].act != actFinish {
		t.Fatalf("popAt(3s) = %v", got)
	}
	if !q.onlyWakes() {
		t.Fatal("after the finish, only two wakes are left, but onlyWakes is false")
	}
	q.popAt(5 * time.Second)
	q.popAt(9 * time.Second)
	if q.onlyWakes() || q.wakes != 0 {
		t.Errorf("emptied: onlyWakes %v, wakes %d", q.onlyWakes(), q.wakes)
	}
}

// TestTimelineOnlyWakesNext: whether every item of the earliest time is a
// wake, wherever the heap keeps them.
func TestTimelineOnlyWakesNext(t *testing.T) {
	var q timeline
	if q.onlyWakesNext() {
		t.Fatal("an empty timeline's next instant holds only wakes")
	}
	for _, at := range []time.Duration{5, 5, 7, 5, 9, 5} {
		q.push(&item{at: at * time.Second, act: actWake})
	}
	if !q.onlyWakesNext() {
		t.Fatal("only wakes at 5s, but onlyWakesNext is false")
	}
	q.push(&item{at: 5 * time.Second, act: actFinish})
	if q.onlyWakesNext() {
		t.Fatal("a finish at 5s among the wakes, but onlyWakesNext is true")
	}
	q.popAt(5 * time.Second)
	if !q.onlyWakesNext() || q.next() != 7*time.Second {
		t.Errorf("after 5s: next %v, onlyWakesNext %v", q.next(), q.onlyWakesNext())
	}
}
