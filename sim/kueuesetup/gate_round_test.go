package kueuesetup

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-logr/logr"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
)

// releaseMidRound is the StatusChecker Kueue's queue manager asks: it
// passes the question to the gate and, at the first question once armed,
// releases the gate from another goroutine and gives that release a while
// to land before the round of heads asks about the next ClusterQueue.
type releaseMidRound struct {
	g     *SchedulerGate
	armed atomic.Bool
	once  sync.Once
}

func (r *releaseMidRound) ClusterQueueActive(name kueue.ClusterQueueReference) bool {
	active := r.g.ClusterQueueActive(name)
	if !r.armed.Load() {
		return active
	}
	r.once.Do(func() {
		done := make(chan struct{})
		go func() { r.g.Release(); close(done) }()
		select {
		case <-done:
		case <-time.After(200 * time.Millisecond):
		}
	})
	return active
}

// A round of heads sees the gate held or released, never held for one
// ClusterQueue and released for the next: a release that lands while the
// scheduler takes heads waits for the round to end. Otherwise the round
// takes only some heads, and a workload is tried without the head it
// should wait behind (Kueue's scheduler reserves a cohort's quota for a
// head that cannot preempt, and that head was not taken).
func TestGateChangesBetweenRoundsOfHeads(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	g := &SchedulerGate{checker: allActive{}}
	cqA, lqA := testQueue("cq-a")
	cqB, lqB := testQueue("cq-b")
	lqA.Name, lqB.Name = "lq-a", "lq-b"
	checker := &releaseMidRound{g: g}
	_, preemption, _ := preemptionExpectations()
	m, _ := newQueueManager(testClient(t, cqA, lqA, cqB, lqB), checker, preemption...)
	g.queues = m
	for _, cq := range []*kueue.ClusterQueue{cqA, cqB} {
		if err := m.AddClusterQueue(ctx, cq); err != nil {
			t.Fatal(err)
		}
	}
	for _, lq := range []*kueue.LocalQueue{lqA, lqB} {
		if err := m.AddLocalQueue(ctx, lq); err != nil {
			t.Fatal(err)
		}
	}
	g.Hold()
	for _, q := range []string{"lq-a", "lq-b"} {
		wl := testWorkload("w-" + q)
		wl.Spec.QueueName = kueue.LocalQueueName(q)
		if err := m.AddOrUpdateWorkload(logr.Discard(), wl); err != nil {
			t.Fatal(err)
		}
	}
	go m.CleanUpOnContext(ctx) // a round that never ends fails at the timeout
	checker.armed.Store(true)
	if heads := m.Heads(ctx); len(heads) != 2 {
		t.Fatalf("the scheduler took %d heads, want both: the release landed in the middle of a round of heads", len(heads))
	}
}
