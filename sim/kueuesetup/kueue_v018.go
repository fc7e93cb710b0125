//go:build kueue_v0_18

// This file builds against Kueue v0.18 (-tags kueue_v0_18 with
// hack/kueue/v0.18.2.mod). Its twins build against the other releases:
// kueue_v016.go against Kueue v0.16 (-tags kueue_v0_16), kueue_v017.go
// against Kueue v0.17 (-tags kueue_v0_17), kueue_v019.go against Kueue
// v0.19 (the module's go.mod). The releases wire their setup
// differently (feature gates, core controllers, the scheduler's event
// recorder and options, the DRA indexes, the queue manager's lookups),
// and each file does it as that release's cmd/kueue does. v0.18 sets its
// feature gates, validates its configuration, records events and looks
// up pending workloads as v0.19 does, and copies labels to Workloads as
// v0.17 does; it has no resource formatter, and indexes ResourceSlices
// when its KueueDRAIntegrationPartitionableDevices gate is on.
// What v0.18 and v0.19 share is in kueue_v018_v019.go; what they share
// with v0.17, in kueue_not_v016.go.

package kueuesetup

import (
	"context"
	"fmt"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	configapi "sigs.k8s.io/kueue/apis/config/v1beta2"
	qcache "sigs.k8s.io/kueue/pkg/cache/queue"
	schdcache "sigs.k8s.io/kueue/pkg/cache/scheduler"
	"sigs.k8s.io/kueue/pkg/constants"
	"sigs.k8s.io/kueue/pkg/controller/core"
	"sigs.k8s.io/kueue/pkg/controller/jobframework"
	"sigs.k8s.io/kueue/pkg/dra"
	"sigs.k8s.io/kueue/pkg/features"
	"sigs.k8s.io/kueue/pkg/scheduler"
	"sigs.k8s.io/kueue/pkg/util/expectations"
)

// release holds what this Kueue release's setup shares between its steps:
// the DRA mapping Kueue's queue manager and core controllers are given.
type release struct {
	draMapper *dra.ResourceMapper
	draBacked *dra.ExtendedResourceCache
}

// newRelease returns this release's shared setup state and the options it
// adds to Kueue's scheduler cache and queue manager.
func newRelease(_ context.Context, _ ctrl.Manager, cfg *configapi.Configuration) (*release, []schdcache.Option, []qcache.Option, error) {
	r := &release{}
	queueOpts := []qcache.Option{qcache.WithResourceMetrics(cfg.Metrics.EnableClusterQueueResources)}
	if features.Enabled(features.KueueDRAIntegration) {
		r.draMapper = dra.NewResourceMapper()
		r.draBacked = dra.NewExtendedResourceCache()
		if cfg.Resources != nil && len(cfg.Resources.DeviceClassMappings) > 0 {
			if err := r.draMapper.PopulateFromConfiguration(cfg.Resources.DeviceClassMappings); err != nil {
				return nil, nil, nil, fmt.Errorf("mapping Kueue's DRA device classes: %w", err)
			}
		}
		queueOpts = append(queueOpts, qcache.WithDRABackedResources(r.draBacked))
	}
	return r, nil, queueOpts, nil
}

// setupIndexes adds the ResourceSlice index Kueue's partitionable-device
// DRA support reads when its gate is on.
func (*release) setupIndexes(ctx context.Context, mgr ctrl.Manager) error {
	if !features.Enabled(features.KueueDRAIntegrationPartitionableDevices) {
		return nil
	}
	if err := core.SetupResourceSliceIndexer(ctx, mgr.GetFieldIndexer()); err != nil {
		return fmt.Errorf("setting up Kueue's ResourceSlice index: %w", err)
	}
	return nil
}

// setupCoreControllers sets up Kueue's core controllers; it returns the
// name of the one that failed.
func (r *release) setupCoreControllers(mgr ctrl.Manager, queues *qcache.Manager, cCache *schdcache.Cache, cfg *configapi.Configuration, preemption *expectations.Store) (string, error) {
	return core.SetupControllers(mgr, queues, cCache, cfg, core.SetupControllersOpts{
		PreemptionExpectations: preemption,
		DRAMapper:              r.draMapper,
		DRABackedResources:     r.draBacked,
	})
}

// copyOptions tells Kueue's job integrations which labels of a job to copy
// to its Workload.
func (*release) copyOptions(cfg *configapi.Configuration) []jobframework.Option {
	return []jobframework.Option{jobframework.WithLabelKeysToCopy(cfg.Integrations.LabelKeysToCopy)}
}

// newScheduler builds Kueue's scheduler, writing with c.
func (*release) newScheduler(mgr ctrl.Manager, queues *qcache.Manager, cCache *schdcache.Cache, c client.Client, cfg *configapi.Configuration, opts ...scheduler.Option) *scheduler.Scheduler {
	opts = append(opts, scheduler.WithQuotaCheckStrategy(quotaCheckStrategy(cfg)))
	return scheduler.New(queues, cCache, c, mgr.GetEventRecorder(constants.AdmissionName), opts...)
}
