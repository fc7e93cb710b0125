package kueuesetup

import (
	"context"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
)

type allActive struct{}

func (allActive) ClusterQueueActive(kueue.ClusterQueueReference) bool { return true }

// The gate pauses the scheduler at its first look at the queues after a
// cycle wrote an eviction, and only Resume or Release lets it go on;
// admissions and other status writes do not pause it.
func TestGatePausesAfterAnEvictingCycle(t *testing.T) {
	scheme := runtime.NewScheme()
	if err := kueue.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	wl := &kueue.Workload{ObjectMeta: metav1.ObjectMeta{Name: "w", Namespace: "ns"}}
	c := fake.NewClientBuilder().WithScheme(scheme).WithObjects(wl).WithStatusSubresource(wl).Build()
	g := &SchedulerGate{checker: allActive{}}
	g.LockStep(true)
	sc := g.Client(c)
	ctx := context.Background()
	write := func(cond metav1.Condition) {
		t.Helper()
		var got kueue.Workload
		if err := sc.Get(ctx, client.ObjectKeyFromObject(wl), &got); err != nil {
			t.Fatal(err)
		}
		base := got.DeepCopy()
		cond.LastTransitionTime = metav1.Now()
		got.Status.Conditions = []metav1.Condition{cond}
		if err := sc.Status().Patch(ctx, &got, client.MergeFrom(base)); err != nil {
			t.Fatal(err)
		}
	}
	if !g.ClusterQueueActive("cq") || g.Paused() {
		t.Fatal("a fresh gate stops the scheduler")
	}
	write(metav1.Condition{Type: kueue.WorkloadQuotaReserved, Status: metav1.ConditionTrue, Reason: "QuotaReserved"})
	if !g.ClusterQueueActive("cq") {
		t.Fatal("an admission paused the scheduler")
	}
	if g.Resume() {
		t.Fatal("Resume says the scheduler was paused when nothing was evicted")
	}
	write(metav1.Condition{Type: kueue.WorkloadEvicted, Status: metav1.ConditionTrue, Reason: "Preempted"})
	if !g.Paused() {
		t.Fatal("after an eviction the gate does not say the scheduler pauses")
	}
	if g.ClusterQueueActive("cq") || g.ClusterQueueActive("other") {
		t.Fatal("the scheduler went on after an evicting cycle without Resume")
	}
	if !g.Resume() {
		t.Fatal("Resume does not say it let a paused scheduler go on")
	}
	if !g.ClusterQueueActive("cq") || g.Paused() {
		t.Fatal("the scheduler stays paused after Resume")
	}
	// A write that keeps Evicted true (the pending message of a workload
	// evicted earlier) evicts nothing.
	write(metav1.Condition{Type: kueue.WorkloadEvicted, Status: metav1.ConditionTrue, Reason: "Preempted"})
	if g.Paused() || g.Resume() {
		t.Fatal("a write that kept Evicted true paused the scheduler")
	}
	write(metav1.Condition{Type: kueue.WorkloadQuotaReserved, Status: metav1.ConditionTrue, Reason: "QuotaReserved"})
	g.Hold()
	write(metav1.Condition{Type: kueue.WorkloadEvicted, Status: metav1.ConditionTrue, Reason: "Preempted"})
	if g.ClusterQueueActive("cq") {
		t.Fatal("a held gate let the scheduler go")
	}
	if g.Resume() || g.Paused() {
		t.Fatal("a held gate is paused or resumable: only Release lets it go")
	}
	g.Release()
	if !g.ClusterQueueActive("cq") {
		t.Fatal("Release did not let the scheduler go on")
	}
	// A cycle that evicts while the scheduler is parked (Park holds it)
	// still pauses it after Unpark, as it would have without the park.
	write(metav1.Condition{Type: kueue.WorkloadQuotaReserved, Status: metav1.ConditionTrue, Reason: "QuotaReserved"})
	g.Hold()
	write(metav1.Condition{Type: kueue.WorkloadEvicted, Status: metav1.ConditionTrue, Reason: "Preempted"})
	g.Unpark()
	if !g.Paused() || g.ClusterQueueActive("cq") {
		t.Fatal("after Unpark the scheduler went on past an evicting cycle")
	}
	if !g.Resume() || !g.ClusterQueueActive("cq") {
		t.Fatal("Resume did not let the unparked scheduler go on")
	}
	// Without lock-step (no replay resumes it: sim up, sim serve) an
	// evicting cycle does not pause the scheduler.
	g.LockStep(false)
	write(metav1.Condition{Type: kueue.WorkloadQuotaReserved, Status: metav1.ConditionTrue, Reason: "QuotaReserved"})
	write(metav1.Condition{Type: kueue.WorkloadEvicted, Status: metav1.ConditionTrue, Reason: "Preempted"})
	if !g.ClusterQueueActive("cq") || g.Paused() || g.Resume() {
		t.Fatal("a gate without lock-step paused the scheduler after an eviction")
	}
}
