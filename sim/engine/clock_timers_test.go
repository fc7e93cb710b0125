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
