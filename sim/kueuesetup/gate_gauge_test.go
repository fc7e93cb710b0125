package kueuesetup

import (
	"context"
	"testing"

	"github.com/go-logr/logr"
	dto "github.com/prometheus/client_model/go"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
	qcache "sigs.k8s.io/kueue/pkg/cache/queue"
	"sigs.k8s.io/kueue/pkg/controller/core/indexer"
	"sigs.k8s.io/kueue/pkg/metrics"
	preemptexpectations "sigs.k8s.io/kueue/pkg/scheduler/preemption/expectations"
	"sigs.k8s.io/kueue/pkg/util/roletracker"
)

// A held gate makes Kueue's pending gauge count every workload as
// inadmissible at once, also in a ClusterQueue nothing touches during the
// hold: the settle reads "workloads to try" from that gauge, and a held
// scheduler tries nothing (a replay's step once waited out its 2-minute
// cap on such a stale gauge). Release counts them as active again.
func TestHoldRecomputesKueuesPendingGauge(t *testing.T) {
	ctx := context.Background()
	cq := &kueue.ClusterQueue{ObjectMeta: metav1.ObjectMeta{Name: "gauge-cq"}}
	lq := &kueue.LocalQueue{ObjectMeta: metav1.ObjectMeta{Name: "lq", Namespace: "ns"},
		Spec: kueue.LocalQueueSpec{ClusterQueue: "gauge-cq"}}
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
	g := &SchedulerGate{checker: allActive{}}
	m := qcache.NewManager(c, g, qcache.NewRequeuer(), qcache.WithPreemptionExpectations(preemptexpectations.New()))
	g.queues = m
	if err := m.AddClusterQueue(ctx, cq); err != nil {
		t.Fatal(err)
	}
	if err := m.AddLocalQueue(ctx, lq); err != nil {
		t.Fatal(err)
	}
	if err := m.AddOrUpdateWorkload(logr.Discard(), wl); err != nil {
		t.Fatal(err)
	}
	gauge := func(status string) float64 {
		var m dto.Metric
		if err := metrics.PendingWorkloads.WithLabelValues("gauge-cq", status, roletracker.RoleStandalone).Write(&m); err != nil {
			t.Fatal(err)
		}
		return m.GetGauge().GetValue()
	}
	if a, i := gauge(metrics.PendingStatusActive), gauge(metrics.PendingStatusInadmissible); a != 1 || i != 0 {
		t.Fatalf("before the hold: active %g, inadmissible %g; want 1, 0", a, i)
	}
	g.Hold()
	if a, i := gauge(metrics.PendingStatusActive), gauge(metrics.PendingStatusInadmissible); a != 0 || i != 1 {
		t.Fatalf("held: active %g, inadmissible %g; want 0, 1", a, i)
	}
	g.Release()
	if a, i := gauge(metrics.PendingStatusActive), gauge(metrics.PendingStatusInadmissible); a != 1 || i != 0 {
		t.Fatalf("released: active %g, inadmissible %g; want 1, 0", a, i)
	}
}
