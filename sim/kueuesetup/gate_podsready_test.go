package kueuesetup

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-logr/logr"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
)

func withQuotaReserved(uid types.UID, status metav1.ConditionStatus, message string) *kueue.Workload {
	wl := &kueue.Workload{ObjectMeta: metav1.ObjectMeta{Name: string(uid), UID: uid}}
	apimeta.SetStatusCondition(&wl.Status.Conditions, metav1.Condition{
		Type: kueue.WorkloadQuotaReserved, Status: status, Reason: "Waiting", Message: message,
	})
	return wl
}

// The scheduler writes that an entry waits for pods to be ready just
// before it blocks; an earlier entry's admission, which Kueue writes
// asynchronously and may land after, does not end that wait; the waiting
// entry's own next write (its admission once woken) and a new cycle do.
func TestPodsReadyWaiterFollowsTheWaitingEntry(t *testing.T) {
	var p podsReadyWaiter
	p.wrote(withQuotaReserved("entry", metav1.ConditionFalse, podsReadyWaitMessage))
	if !p.waiting() {
		t.Fatal("not waiting after the scheduler wrote that an entry waits for pods to be ready")
	}
	p.wrote(withQuotaReserved("earlier", metav1.ConditionTrue, "Quota reserved in ClusterQueue cq"))
	if !p.waiting() {
		t.Fatal("an earlier entry's admission ended the wait")
	}
	p.wrote(withQuotaReserved("entry", metav1.ConditionTrue, "Quota reserved in ClusterQueue cq"))
	if p.waiting() {
		t.Fatal("the waiting entry's admission did not end the wait")
	}
	p.wrote(withQuotaReserved("entry", metav1.ConditionFalse, podsReadyWaitMessage))
	p.clear()
	if p.waiting() {
		t.Fatal("a new cycle did not end the wait")
	}
	p.wrote(withQuotaReserved("other", metav1.ConditionFalse, "couldn't assign flavors to pod set main"))
	if p.waiting() {
		t.Fatal("a pending message other than the pods-ready wait counts as one")
	}
}

// Park returns while the scheduler is blocked in a cycle until admitted
// workloads' pods are ready (waitForPodsReady's blockAdmission), which
// only a later instant brings; without blockAdmission (no notAllReady) it
// waits for the scheduler to come back for heads.
func TestParkReturnsWhileBlockedOnPodsReady(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var notReady atomic.Bool
	notReady.Store(true)
	g := &SchedulerGate{checker: allActive{}, looked: make(chan struct{}, 1), notAllReady: notReady.Load}
	cq, lq := testQueue("podsready-cq")
	m := testQueues(t, g, cq, lq)

	blocked := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		if len(m.Heads(ctx)) == 0 {
			return
		}
		// The entry waits: the scheduler writes so, then blocks.
		g.waitsForPodsReady.wrote(withQuotaReserved("w", metav1.ConditionFalse, podsReadyWaitMessage))
		close(blocked)
		<-ctx.Done()
	}()
	defer func() {
		cancel()
		m.Broadcast()
		<-stopped
	}()
	if err := m.AddOrUpdateWorkload(logr.Discard(), testWorkload("w")); err != nil {
		t.Fatal(err)
	}
	<-blocked
	if !g.BlockedOnPodsReady() {
		t.Fatal("BlockedOnPodsReady is false while the scheduler waits for pods")
	}
	if err := g.Park(ctx, 10*time.Second); err != nil {
		t.Fatalf("Park did not return while the scheduler was blocked on pods ready: %v", err)
	}
	notReady.Store(false)
	if g.BlockedOnPodsReady() {
		t.Fatal("BlockedOnPodsReady is true once every admitted workload's pods are ready")
	}
}
