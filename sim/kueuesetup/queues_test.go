package kueuesetup

import (
	"context"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	k8stypes "k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
	qcache "sigs.k8s.io/kueue/pkg/cache/queue"
	"sigs.k8s.io/kueue/pkg/controller/core/indexer"
)

// The tests here drive Kueue's own queue manager over a fake client.

// testQueue is a ClusterQueue named cq and LocalQueue "lq" of namespace
// "ns" pointing at it.
func testQueue(cq string) (*kueue.ClusterQueue, *kueue.LocalQueue) {
	return &kueue.ClusterQueue{ObjectMeta: metav1.ObjectMeta{Name: cq},
			Spec: kueue.ClusterQueueSpec{NamespaceSelector: &metav1.LabelSelector{}}},
		&kueue.LocalQueue{ObjectMeta: metav1.ObjectMeta{Name: "lq", Namespace: "ns"},
			Spec: kueue.LocalQueueSpec{ClusterQueue: kueue.ClusterQueueReference(cq)}}
}

// testWorkload is a one-pod Workload of LocalQueue "lq" in namespace "ns"
// asking for one CPU.
func testWorkload(name string) *kueue.Workload {
	return &kueue.Workload{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "ns", UID: k8stypes.UID("uid-" + name)},
		Spec: kueue.WorkloadSpec{QueueName: "lq", PodSets: []kueue.PodSet{{Name: "main", Count: 1,
			Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c",
				Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("1")}}}}}}}}}}
}

// testClient is a fake client holding objs and the namespace "ns", with
// the indexes Kueue's queue manager reads.
func testClient(t *testing.T, objs ...client.Object) client.Client {
	t.Helper()
	scheme := runtime.NewScheme()
	if err := kueue.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	if err := corev1.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "ns"}}
	return fake.NewClientBuilder().WithScheme(scheme).WithObjects(append(objs, ns)...).
		WithIndex(&kueue.LocalQueue{}, indexer.QueueClusterQueueKey, indexer.IndexQueueClusterQueue).
		WithIndex(&kueue.Workload{}, indexer.WorkloadQueueKey, indexer.IndexWorkloadQueue).Build()
}

// testQueues is Kueue's queue manager, with its own requeuer, asking gate
// g whether ClusterQueues are active, and knowing cq and lq.
func testQueues(t *testing.T, g *SchedulerGate, cq *kueue.ClusterQueue, lq *kueue.LocalQueue) *qcache.Manager {
	t.Helper()
	_, preemption, _ := preemptionExpectations()
	m, _ := newQueueManager(testClient(t, cq, lq), g, preemption...)
	g.queues = m
	if err := m.AddClusterQueue(context.Background(), cq); err != nil {
		t.Fatal(err)
	}
	if err := m.AddLocalQueue(context.Background(), lq); err != nil {
		t.Fatal(err)
	}
	return m
}
