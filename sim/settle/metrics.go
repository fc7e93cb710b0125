package settle

import (
	"errors"
	"fmt"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
	ctrlmetrics "sigs.k8s.io/controller-runtime/pkg/metrics"
	kueuemetrics "sigs.k8s.io/kueue/pkg/metrics"
)

// The settle reads three gauges at every poll: controller-runtime's
// workqueue_depth and controller_runtime_active_workers, and Kueue's
// kueue_pending_workloads. controller-runtime keeps the first two in its
// process-wide registry beside everything else it records (the process
// collector, which lists /proc/self/fd at every read, all of Go's runtime
// metrics, client-go's request histograms, per-controller reconcile
// histograms). Gathering that whole registry at every poll took 12% of the
// sim process's CPU in a 1k baseline replay. controller-runtime does not
// export the two gauges, so settleCollectors finds them in its registry:
// registering a collector with the same description returns the one
// already there.

// workqueueDepth and activeWorkers describe controller-runtime v0.23's
// gauges exactly (pkg/internal/metrics/workqueue.go and
// pkg/internal/controller/metrics/metrics.go); if an upgrade changes a
// name, help text or label, settleCollectors says so and the settle's
// first poll fails (TestSettleCollectorsFindControllerRuntimeGauges
// catches it first).
var (
	workqueueDepth = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Subsystem: "workqueue",
		Name:      "depth",
		Help:      "Current depth of workqueue by workqueue and priority",
	}, []string{"name", "controller", "priority"})
	activeWorkers = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "controller_runtime_active_workers",
		Help: "Number of currently used workers per controller",
	}, []string{"controller"})
)

// settleCollectors returns, once per process, a gatherer of just the
// settle's three gauges.
var settleCollectors = sync.OnceValues(func() (prometheus.Gatherer, error) {
	reg := prometheus.NewRegistry()
	for _, g := range []struct {
		name string
		c    prometheus.Collector
	}{{"workqueue_depth", workqueueDepth}, {"controller_runtime_active_workers", activeWorkers}} {
		existing, err := registered(ctrlmetrics.Registry, g.name, g.c)
		if err != nil {
			return nil, err
		}
		if err := reg.Register(existing); err != nil {
			return nil, fmt.Errorf("collecting controller-runtime's work-queue gauges: %w", err)
		}
	}
	if err := reg.Register(kueuemetrics.PendingWorkloads); err != nil {
		return nil, fmt.Errorf("collecting Kueue's pending-workloads gauge: %w", err)
	}
	return reg, nil
})

// registered returns the collector reg already holds under c's
// description. It never leaves c registered in reg: a c that was not
// there yet is taken out again, and that is an error (the description no
// longer matches controller-runtime's).
func registered(reg prometheus.Registerer, name string, c prometheus.Collector) (prometheus.Collector, error) {
	err := reg.Register(c)
	var are prometheus.AlreadyRegisteredError
	if errors.As(err, &are) {
		return are.ExistingCollector, nil
	}
	if err == nil {
		reg.Unregister(c)
		err = errors.New("it is not registered")
	}
	return nil, fmt.Errorf("finding controller-runtime's %s gauge (its name, help or labels changed? update sim/settle/metrics.go): %w", name, err)
}

// settleGatherer is settleCollectors' gatherer, or one that returns the
// error that kept it from being made.
func settleGatherer() prometheus.Gatherer {
	g, err := settleCollectors()
	if err != nil {
		return prometheus.GathererFunc(func() ([]*dto.MetricFamily, error) { return nil, err })
	}
	return g
}
