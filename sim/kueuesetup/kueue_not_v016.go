//go:build !kueue_v0_16

// This file builds against every Kueue release kueue-sim builds against
// but v0.16 (kueue_v017.go, kueue_v018.go, kueue_v019.go hold what differs
// among those); its twin, kueue_v016.go, builds against Kueue v0.16 (-tags
// kueue_v0_16 with hack/kueue/v0.16.2.mod), whose queue manager,
// scheduler and Workload controller track no preemption expectations,
// whose requeuer takes its batch period as an argument, whose queue
// manager has no method that reports its gauges again, and whose
// LocalQueue metrics are a feature gate, not a Configuration setting.

package kueuesetup

import (
	"time"

	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	configapi "sigs.k8s.io/kueue/apis/config/v1beta2"
	qcache "sigs.k8s.io/kueue/pkg/cache/queue"
	schdcache "sigs.k8s.io/kueue/pkg/cache/scheduler"
	"sigs.k8s.io/kueue/pkg/features"
	"sigs.k8s.io/kueue/pkg/metrics"
	"sigs.k8s.io/kueue/pkg/scheduler"
	preemptexpectations "sigs.k8s.io/kueue/pkg/scheduler/preemption/expectations"
	"sigs.k8s.io/kueue/pkg/util/expectations"
)

// preemptionExpectations returns the store of the preemptions Kueue's
// scheduler has issued and its Workload controller has not yet seen
// carried out, and the options that hand it to Kueue's queue manager and
// scheduler (its core controllers take it from setupCoreControllers).
func preemptionExpectations() (*expectations.Store, []qcache.Option, []scheduler.Option) {
	s := preemptexpectations.New()
	return s, []qcache.Option{qcache.WithPreemptionExpectations(s)}, []scheduler.Option{scheduler.WithPreemptionExpectations(s)}
}

// requeueBatchPeriod is how long Kueue's requeuer batches the requeues of
// inadmissible workloads: one second; ten with the
// SchedulerLongRequeueInterval feature gate.
func requeueBatchPeriod() time.Duration {
	if features.Enabled(features.SchedulerLongRequeueInterval) {
		return 10 * time.Second
	}
	return time.Second
}

// newQueueManager is Kueue's queue manager with Kueue's own requeuer,
// which batches requeues for requeueBatchPeriod (a wall second); the
// requeuer runs once added to a manager.
func newQueueManager(c client.Client, checker qcache.StatusChecker, opts ...qcache.Option) (*qcache.Manager, manager.Runnable) {
	requeuer := qcache.NewRequeuer()
	return qcache.NewManager(c, checker, requeuer, opts...), requeuer
}

// metricsOptions are the options that tell Kueue's scheduler cache and
// queue manager which of cfg's metrics to report: the ClusterQueue
// resource metrics and the LocalQueue metrics.
func metricsOptions(cfg *configapi.Configuration) ([]schdcache.Option, []qcache.Option) {
	lq := metrics.NewLocalQueueMetricsConfig(cfg.Metrics.LocalQueueMetrics)
	return []schdcache.Option{schdcache.WithResourceMetrics(cfg.Metrics.EnableClusterQueueResources), schdcache.WithLocalQueueMetrics(lq)},
		[]qcache.Option{qcache.WithLocalQueueMetrics(lq)}
}

// resyncPendingGauges has Kueue's queue manager m report every
// ClusterQueue's pending-workloads gauge again, asking its StatusChecker
// whether each ClusterQueue is active.
func resyncPendingGauges(m *qcache.Manager, _ qcache.StatusChecker) { m.ResyncGaugeMetrics() }
