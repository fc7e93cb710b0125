package settle

import (
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	ctrlmetrics "sigs.k8s.io/controller-runtime/pkg/metrics"
)

// TestSettleCollectorsFindControllerRuntimeGauges fails when a
// controller-runtime upgrade changes the gauges the settle reads: without
// them a step could not see in-process controllers' work.
func TestSettleCollectorsFindControllerRuntimeGauges(t *testing.T) {
	g, err := settleCollectors()
	if err != nil {
		t.Fatal(err)
	}
	// The gauges the settle reads are the very ones controller-runtime
	// writes: a value set through controller-runtime's registry shows.
	depth, err := registered(ctrlmetrics.Registry, "workqueue_depth", workqueueDepth)
	if err != nil {
		t.Fatal(err)
	}
	depth.(*prometheus.GaugeVec).WithLabelValues("test-queue", "test-controller", "").Set(3)
	defer depth.(*prometheus.GaugeVec).DeleteLabelValues("test-queue", "test-controller", "")
	mfs, err := g.Gather()
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	found := false
	for _, mf := range mfs {
		names[mf.GetName()] = true
		for _, m := range mf.GetMetric() {
			if mf.GetName() == "workqueue_depth" && label(m, "controller") == "test-controller" && m.GetGauge().GetValue() == 3 {
				found = true
			}
		}
	}
	if !found {
		t.Errorf("the settle's gatherer does not see controller-runtime's workqueue_depth; it gathered %v", names)
	}
	for name := range names {
		if name != "workqueue_depth" && name != "controller_runtime_active_workers" && name != "kueue_pending_workloads" {
			t.Errorf("the settle's gatherer reads %s, which no settle check uses", name)
		}
	}
}

func TestRegisteredRefusesAnUnknownGauge(t *testing.T) {
	reg := prometheus.NewRegistry()
	g := prometheus.NewGauge(prometheus.GaugeOpts{Name: "not_there", Help: "x"})
	if _, err := registered(reg, "not_there", g); err == nil {
		t.Fatal("registered found a gauge that was not registered")
	}
	// It does not leave the gauge behind.
	if err := reg.Register(g); err != nil {
		t.Errorf("registered left the gauge registered: %v", err)
	}
}
