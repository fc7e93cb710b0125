package kueuesetup

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	k8stypes "k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
	qcache "sigs.k8s.io/kueue/pkg/cache/queue"
	"sigs.k8s.io/kueue/pkg/controller/core/indexer"
	preemptexpectations "sigs.k8s.io/kueue/pkg/scheduler/preemption/expectations"
	"sigs.k8s.io/kueue/pkg/workload"
)

// A workload Kueue could not admit stays aside after the quota it waits
// for is freed, until the caller processes the requeue Kueue asked for:
// Pending names the ClusterQueue, Process moves the workload back.
func TestRequeuesWaitForProcess(t *testing.T) {
	ctx := context.Background()
	cq := &kueue.ClusterQueue{ObjectMeta: metav1.ObjectMeta{Name: "req-cq"},
		Spec: kueue.ClusterQueueSpec{NamespaceSelector: &metav1.LabelSelector{}}}
	lq := &kueue.LocalQueue{ObjectMeta: metav1.ObjectMeta{Name: "lq", Namespace: "ns"},
		Spec: kueue.LocalQueueSpec{ClusterQueue: "req-cq"}}
	wl := func(name string) *kueue.Workload {
		return &kueue.Workload{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "ns", UID: k8stypes.UID("uid-" + name)},
			Spec: kueue.WorkloadSpec{QueueName: "lq", PodSets: []kueue.PodSet{{Name: "main", Count: 1,
				Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c",
					Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("1")}}}}}}}}}}
	}
	waiting, running := wl("waiting"), wl("running")
	scheme := runtime.NewScheme()
	if err := kueue.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	if err := corev1.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "ns"}}
	c := fake.NewClientBuilder().WithScheme(scheme).WithObjects(cq, lq, ns, waiting, running).
		WithIndex(&kueue.LocalQueue{}, indexer.QueueClusterQueueKey, indexer.IndexQueueClusterQueue).
		WithIndex(&kueue.Workload{}, indexer.WorkloadQueueKey, indexer.IndexWorkloadQueue).Build()
	g := &SchedulerGate{checker: allActive{}}
	m, r := qcache.NewManagerForUnitTestsWithRequeuer(c, g, qcache.WithPreemptionExpectations(preemptexpectations.New()))
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
	heads := m.Heads(ctx)
	if len(heads) != 1 {
		t.Fatalf("Heads() = %d workloads, want 1", len(heads))
	}
	m.RequeueWorkload(ctx, &heads[0], qcache.RequeueReasonGeneric)
	tried := workload.Key(heads[0].Obj)
	if got := m.DumpInadmissible()["req-cq"]; !slices.Equal(got, []workload.Reference{tried}) {
		t.Fatalf("inadmissible = %v, want [%s]", got, tried)
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
