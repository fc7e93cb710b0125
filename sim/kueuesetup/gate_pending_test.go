package kueuesetup

import (
	"testing"

	"github.com/go-logr/logr"
)

// While held, the gate reports Kueue's pending split as Kueue published it
// before the hold, not the hold's (everything inadmissible); released, as
// the gauge stands; held from a pause, nothing, since the gauge showed the
// pause then.
func TestGatePendingCountsAreKueuesOwn(t *testing.T) {
	g := &SchedulerGate{checker: allActive{}}
	cq, lq := testQueue("pending-counts-cq")
	m := testQueues(t, g, cq, lq)
	if err := m.AddOrUpdateWorkload(logr.Discard(), testWorkload("w")); err != nil {
		t.Fatal(err)
	}
	readCQ := func(when, cq string) (PendingCounts, bool) {
		t.Helper()
		c, ok, err := g.PendingCounts(cq)
		if err != nil {
			t.Fatalf("%s: %v", when, err)
		}
		return c, ok
	}
	read := func(when string) (PendingCounts, bool) { t.Helper(); return readCQ(when, "pending-counts-cq") }
	own := PendingCounts{Active: 1}
	if c, ok := read("going"); !ok || c != own {
		t.Fatalf("going: %+v, %v; want %+v", c, ok, own)
	}
	g.Hold()
	if got, err := publishedPending(); err != nil || got["pending-counts-cq"] != (PendingCounts{Inadmissible: 1}) {
		t.Fatalf("held, the gauge shows %+v (%v); want the hold's: everything inadmissible", got["pending-counts-cq"], err)
	}
	if c, ok := read("held"); !ok || c != own {
		t.Errorf("held: %+v, %v; want Kueue's own %+v", c, ok, own)
	}
	g.Hold() // holding again keeps what the first hold saw
	if c, ok := read("held twice"); !ok || c != own {
		t.Errorf("held twice: %+v, %v; want %+v", c, ok, own)
	}
	if _, ok := readCQ("unknown ClusterQueue", "never-reported-cq"); ok {
		t.Error("held: a ClusterQueue Kueue never reported has counts")
	}
	g.Release()
	if c, ok := read("released"); !ok || c != own {
		t.Errorf("released: %+v, %v; want %+v", c, ok, own)
	}

	g.LockStep(true)
	g.evictions.Add(1)
	g.ClusterQueueActive("pending-counts-cq") // the look that pauses
	if c, ok := read("paused"); ok {
		t.Errorf("paused: %+v; want nothing (the gauge shows the pause)", c)
	}
	g.Hold()
	if c, ok := read("held from a pause"); ok {
		t.Errorf("held from a pause: %+v; want nothing", c)
	}
}
