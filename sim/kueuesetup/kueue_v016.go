//go:build kueue_v0_16

// This file builds against Kueue v0.16 (-tags kueue_v0_16 with
// hack/kueue/v0.16.2.mod), the release the Red Hat build of Kueue ships.
// Its twins build against the other releases: kueue_v017.go and
// kueue_v018.go against Kueue v0.17 and v0.18, kueue_v019.go against
// Kueue v0.19 (the module's go.mod), and kueue_not_v016.go against every release but
// v0.16. The releases wire their setup differently, and each file does it
// as that release's cmd/kueue does. v0.16 sets its feature gates, loads
// its Configuration, records events and copies labels to Workloads as
// v0.17 does; it tracks no preemption expectations, its core controllers
// take the Configuration's ClusterQueue resource metrics setting
// themselves, its requeuer takes its batch period as an argument, its
// LocalQueue metrics are the LocalQueueMetrics feature gate alone, and its
// DRA mapping is process-wide.

package kueuesetup

import (
	"context"
	"fmt"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	configapi "sigs.k8s.io/kueue/apis/config/v1beta2"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
	qcache "sigs.k8s.io/kueue/pkg/cache/queue"
	schdcache "sigs.k8s.io/kueue/pkg/cache/scheduler"
	"sigs.k8s.io/kueue/pkg/controller/core"
	"sigs.k8s.io/kueue/pkg/dra"
	"sigs.k8s.io/kueue/pkg/features"
	"sigs.k8s.io/kueue/pkg/metrics"
	"sigs.k8s.io/kueue/pkg/scheduler"
	"sigs.k8s.io/kueue/pkg/util/expectations"
)

// release holds what this Kueue release's setup shares between its steps:
// nothing in v0.16.
type release struct{}

// newRelease returns this release's shared setup state and the options it
// adds to Kueue's scheduler cache and queue manager: none in v0.16. With
// the DynamicResourceAllocation gate on, it maps the Configuration's
// device classes in Kueue's process-wide DRA mapper.
func newRelease(_ context.Context, _ ctrl.Manager, cfg *configapi.Configuration) (*release, []schdcache.Option, []qcache.Option, error) {
	if features.Enabled(features.DynamicResourceAllocation) && cfg.Resources != nil && len(cfg.Resources.DeviceClassMappings) > 0 {
		if err := dra.CreateMapperFromConfiguration(cfg.Resources.DeviceClassMappings); err != nil {
			return nil, nil, nil, fmt.Errorf("mapping Kueue's DRA device classes: %w", err)
		}
	}
	return &release{}, nil, nil, nil
}

// setupCoreControllers sets up Kueue's core controllers; it returns the
// name of the one that failed. v0.16's take no preemption expectations.
func (*release) setupCoreControllers(mgr ctrl.Manager, queues *qcache.Manager, cCache *schdcache.Cache, cfg *configapi.Configuration, _ *expectations.Store) (string, error) {
	return core.SetupControllers(mgr, queues, cCache, cfg, nil)
}

// preemptionExpectations returns no store and no options: Kueue v0.16's
// scheduler, queue manager and Workload controller track no preemption
// expectations.
func preemptionExpectations() (*expectations.Store, []qcache.Option, []scheduler.Option) {
	return nil, nil, nil
}

// requeueBatchPeriod is how long Kueue's requeuer batches the requeues of
// inadmissible workloads: one second (v0.16 has no
// SchedulerLongRequeueInterval gate).
func requeueBatchPeriod() time.Duration { return qcache.RequeueBatchPeriodProd }

// newQueueManager is Kueue's queue manager with Kueue's own requeuer,
// which batches requeues for requeueBatchPeriod (a wall second); the
// requeuer runs once added to a manager.
func newQueueManager(c client.Client, checker qcache.StatusChecker, opts ...qcache.Option) (*qcache.Manager, manager.Runnable) {
	requeuer := qcache.NewRequeuer(requeueBatchPeriod())
	return qcache.NewManager(c, checker, requeuer, opts...), requeuer
}

// withoutLocalQueueMetrics returns cfg: Kueue v0.16's Configuration has no
// LocalQueue metrics setting, its LocalQueue metrics are the
// LocalQueueMetrics feature gate (alpha, off by default), which Setup
// leaves as the Configuration sets it (see lqmetrics.go for their cost).
func withoutLocalQueueMetrics(cfg *configapi.Configuration) *configapi.Configuration { return cfg }

// metricsOptions are none: Kueue v0.16's scheduler cache and queue manager
// take no metrics settings (its ClusterQueue controller reads the
// Configuration's resource metrics setting itself).
func metricsOptions(*configapi.Configuration) ([]schdcache.Option, []qcache.Option) { return nil, nil }

// resyncPendingGauges reports every ClusterQueue's pending-workloads gauge
// of Kueue's queue manager m again, as Kueue's queue manager does after a
// change to one ClusterQueue: its workloads counted active or
// inadmissible, all inadmissible while checker (the queue manager's
// StatusChecker) says the ClusterQueue is not active. Kueue v0.16's queue
// manager has no method for it (ResyncGaugeMetrics comes in v0.17) and
// exports its counts per ClusterQueue only as a total and a list of the
// inadmissible ones, read under separate locks: a workload Kueue moves
// between the two reads is miscounted until Kueue next reports that
// ClusterQueue.
func resyncPendingGauges(m *qcache.Manager, checker qcache.StatusChecker) {
	inadmissible := m.DumpInadmissible()
	for _, name := range m.GetClusterQueueNames() {
		total, err := m.Pending(&kueue.ClusterQueue{ObjectMeta: metav1.ObjectMeta{Name: string(name)}})
		if err != nil {
			continue // deleted since GetClusterQueueNames
		}
		aside := min(len(inadmissible[name]), total)
		active := total - aside
		if !checker.ClusterQueueActive(name) {
			aside, active = total, 0
		}
		metrics.ReportPendingWorkloads(name, active, aside, nil)
	}
}
