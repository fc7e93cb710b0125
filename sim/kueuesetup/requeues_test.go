package kueuesetup

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/go-logr/logr"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
	qcache "sigs.k8s.io/kueue/pkg/cache/queue"
	"sigs.k8s.io/kueue/pkg/workload"
)

// A workload Kueue could not admit stays aside after the quota it waits
// for is freed, until the caller processes the requeue Kueue asked for:
// Pending names the ClusterQueue, Process moves the workload back. Idle
// holds only while no workload is queued, active or aside.
func TestRequeuesWaitForProcess(t *testing.T) {
	ctx := context.Background()
	cq, lq := testQueue("req-cq")
	waiting, running := testWorkload("waiting"), testWorkload("running")
	c := testClient(t, cq, lq, waiting, running)
	g := &SchedulerGate{checker: allActive{}}
	_, preemption, _ := preemptionExpectations()
	m, r := qcache.NewManagerForUnitTestsWithRequeuer(c, g, preemption...)
	g.queues = m
	q, err := newRequeues(m, r)
	if err != nil {
		t.Fatal(err)
	}
	if q.Period() != time.Second {
		t.Errorf("Period() = %v, want Kueue's default 1s", q.Period())
	}
	if err := m.AddClusterQueue(ctx, cq); err != nil {
		t.Fatal(err)
	}
	if !q.Idle() {
		t.Error("with no workload queued, Idle() = false")
	}
	// The LocalQueue brings the client's workloads into Kueue's queues.
	if err := m.AddLocalQueue(ctx, lq); err != nil {
		t.Fatal(err)
	}
	if got := q.Pending(); !slices.Equal(got, []string{"cqs/req-cq"}) {
		t.Fatalf("after adding the ClusterQueue, Pending() = %v, want [cqs/req-cq]", got)
	}
	q.Process(ctx)
	for _, w := range []*kueue.Workload{waiting, running} {
		if err := m.AddOrUpdateWorkload(logr.Discard(), w); err != nil {
			t.Fatal(err)
		}
	}
	// Kueue's scheduler tries the head and cannot admit it.
	head, n := requeueFirstHead(ctx, m)
	if n != 1 {
		t.Fatalf("Heads() = %d workloads, want 1", n)
	}
	tried := workload.Key(head)
	if got := m.DumpInadmissible()["req-cq"]; !slices.Equal(got, []workload.Reference{tried}) {
		t.Fatalf("inadmissible = %v, want [%s]", got, tried)
	}
	if q.Idle() {
		t.Error("with a workload aside as inadmissible, Idle() = true")
	}
	// The other workload's end frees quota: Kueue asks for a requeue.
	other := workload.Key(running)
	if tried == other {
		other = workload.Key(waiting)
	}
	m.QueueAssociatedInadmissibleWorkloadsAfter(ctx, other, nil)
	if got := q.Pending(); !slices.Equal(got, []string{"cqs/req-cq"}) {
		t.Fatalf("after the end, Pending() = %v, want [cqs/req-cq]", got)
	}
	if got := m.DumpInadmissible()["req-cq"]; len(got) != 1 {
		t.Fatalf("before Process, inadmissible = %v, want the tried workload still aside", got)
	}
	if moved := q.Process(ctx); moved != 1 {
		t.Errorf("Process() = %d, want 1", moved)
	}
	if got := q.Pending(); len(got) != 0 {
		t.Errorf("after Process, Pending() = %v, want none", got)
	}
	if got := m.DumpInadmissible()["req-cq"]; len(got) != 0 {
		t.Errorf("after Process, inadmissible = %v, want none", got)
	}
}
