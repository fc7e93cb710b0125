package kueuesetup

import (
	"testing"

	"github.com/go-logr/logr"
	dto "github.com/prometheus/client_model/go"
	"sigs.k8s.io/kueue/pkg/metrics"
	"sigs.k8s.io/kueue/pkg/util/roletracker"
)

// A held gate makes Kueue's pending gauge count every workload as
// inadmissible at once, also in a ClusterQueue nothing touches during the
// hold: the settle reads "workloads to try" from that gauge, and a held
// scheduler tries nothing (a replay's step once waited out its 2-minute
// cap on such a stale gauge). Release counts them as active again.
func TestHoldRecomputesKueuesPendingGauge(t *testing.T) {
	g := &SchedulerGate{checker: allActive{}}
	cq, lq := testQueue("gauge-cq")
	m := testQueues(t, g, cq, lq)
	wl := testWorkload("w")
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
