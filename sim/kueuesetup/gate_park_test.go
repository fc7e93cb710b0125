package kueuesetup

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-logr/logr"
)

// Park waits for a scheduling cycle under way to end, and returns at once
// when the scheduler is waiting for heads. The scheduler here is Kueue's
// loop in miniature: take heads from the queue manager, spend a while on
// them, count the cycle, come back for more.
func TestParkWaitsForTheCycleUnderWay(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	g := &SchedulerGate{checker: allActive{}, looked: make(chan struct{}, 1)}
	cq, lq := testQueue("park-cq")
	m := testQueues(t, g, cq, lq)
	wl := testWorkload("w")

	const cycle = 200 * time.Millisecond
	var cycles atomic.Int64
	took := make(chan struct{}, 1)
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		for len(m.Heads(ctx)) > 0 {
			took <- struct{}{}
			time.Sleep(cycle)
			cycles.Add(1)
		}
	}()
	defer func() {
		cancel()
		m.Broadcast()
		<-stopped
	}()

	if err := m.AddOrUpdateWorkload(logr.Discard(), wl); err != nil {
		t.Fatal(err)
	}
	<-took // a cycle is under way
	if err := g.Park(ctx, time.Minute); err != nil {
		t.Fatal(err)
	}
	if n := cycles.Load(); n != 1 {
		t.Fatalf("Park returned with %d cycles finished, want 1: it did not wait for the cycle under way", n)
	}

	// Now the scheduler waits for heads: Park returns without a cycle,
	// and a workload queued while parked is not taken.
	if err := m.AddOrUpdateWorkload(logr.Discard(), testWorkload("w2")); err != nil {
		t.Fatal(err)
	}
	if err := g.Park(ctx, time.Minute); err != nil {
		t.Fatal(err)
	}
	select {
	case <-took:
		t.Fatal("the scheduler took heads while parked")
	case <-time.After(cycle):
	}
	g.Release()
	select {
	case <-took:
	case <-time.After(time.Minute):
		t.Fatal("the scheduler took no heads after Release")
	}
}

// Park gives up, with an error, when no scheduler comes for heads.
func TestParkWithoutScheduler(t *testing.T) {
	g := &SchedulerGate{checker: allActive{}, looked: make(chan struct{}, 1)}
	cq, lq := testQueue("park-none")
	testQueues(t, g, cq, lq)
	if err := g.Park(context.Background(), 50*time.Millisecond); err == nil {
		t.Fatal("Park() = nil with no scheduler, want an error")
	}
}
