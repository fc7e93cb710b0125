package kueuesetup

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
	qcache "sigs.k8s.io/kueue/pkg/cache/queue"
	"sigs.k8s.io/kueue/pkg/controller/core/indexer"
	preemptexpectations "sigs.k8s.io/kueue/pkg/scheduler/preemption/expectations"
)

// Park waits for a scheduling cycle under way to end, and returns at once
// when the scheduler is waiting for heads. The scheduler here is Kueue's
// loop in miniature: take heads from the queue manager, spend a while on
// them, count the cycle, come back for more.
func TestParkWaitsForTheCycleUnderWay(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cq := &kueue.ClusterQueue{ObjectMeta: metav1.ObjectMeta{Name: "park-cq"}}
	lq := &kueue.LocalQueue{ObjectMeta: metav1.ObjectMeta{Name: "lq", Namespace: "ns"},
		Spec: kueue.LocalQueueSpec{ClusterQueue: "park-cq"}}
	wl := &kueue.Workload{ObjectMeta: metav1.ObjectMeta{Name: "w", Namespace: "ns"},
		Spec: kueue.WorkloadSpec{QueueName: "lq", PodSets: []kueue.PodSet{{Name: "main", Count: 1,
			Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c",
				Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("1")}}}}}}}}}}
	scheme := runtime.NewScheme()
	if err := kueue.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	c := fake.NewClientBuilder().WithScheme(scheme).WithObjects(cq, lq, wl).
		WithIndex(&kueue.LocalQueue{}, indexer.QueueClusterQueueKey, indexer.IndexQueueClusterQueue).
		WithIndex(&kueue.Workload{}, indexer.WorkloadQueueKey, indexer.IndexWorkloadQueue).Build()
	g := &SchedulerGate{checker: allActive{}, looked: make(chan struct{}, 1)}
	m := qcache.NewManager(c, g, qcache.NewRequeuer(), qcache.WithPreemptionExpectations(preemptexpectations.New()))
	g.queues = m
	if err := m.AddClusterQueue(ctx, cq); err != nil {
		t.Fatal(err)
	}
	if err := m.AddLocalQueue(ctx, lq); err != nil {
		t.Fatal(err)
	}

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
	wl2 := wl.DeepCopy()
	wl2.Name = "w2"
	if err := m.AddOrUpdateWorkload(logr.Discard(), wl2); err != nil {
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
	ctx := context.Background()
	cq := &kueue.ClusterQueue{ObjectMeta: metav1.ObjectMeta{Name: "park-none"}}
	scheme := runtime.NewScheme()
	if err := kueue.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	c := fake.NewClientBuilder().WithScheme(scheme).WithObjects(cq).
		WithIndex(&kueue.LocalQueue{}, indexer.QueueClusterQueueKey, indexer.IndexQueueClusterQueue).
		WithIndex(&kueue.Workload{}, indexer.WorkloadQueueKey, indexer.IndexWorkloadQueue).Build()
	g := &SchedulerGate{checker: allActive{}, looked: make(chan struct{}, 1)}
	m := qcache.NewManager(c, g, qcache.NewRequeuer(), qcache.WithPreemptionExpectations(preemptexpectations.New()))
	g.queues = m
	if err := m.AddClusterQueue(ctx, cq); err != nil {
		t.Fatal(err)
	}
	if err := g.Park(ctx, 50*time.Millisecond); err == nil {
		t.Fatal("Park() = nil with no scheduler, want an error")
	}
}
