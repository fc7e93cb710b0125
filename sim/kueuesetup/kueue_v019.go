//go:build !kueue_v0_16 && !kueue_v0_17 && !kueue_v0_18

// This file builds against Kueue v0.19 (the module's go.mod, no build
// tag). Its twins build against the other releases: kueue_v016.go against
// Kueue v0.16 (-tags kueue_v0_16 with hack/kueue/v0.16.2.mod),
// kueue_v017.go against Kueue v0.17 (-tags kueue_v0_17 with
// hack/kueue/v0.17.1.mod), kueue_v018.go against Kueue v0.18 (-tags
// kueue_v0_18 with hack/kueue/v0.18.2.mod). The
// releases wire their setup differently (feature gates, core controllers,
// the scheduler's event recorder and options, the DRA indexes, the queue
// manager's lookups), and each file does it as that release's cmd/kueue
// does.
// What v0.18 and v0.19 share is in kueue_v018_v019.go; what they share
// with v0.17, in kueue_not_v016.go.

package kueuesetup

import (
	"context"
	"errors"
	"fmt"

	"k8s.io/apimachinery/pkg/util/sets"
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
	"sigs.k8s.io/kueue/pkg/metrics"
	"sigs.k8s.io/kueue/pkg/resources"
	"sigs.k8s.io/kueue/pkg/scheduler"
	utildra "sigs.k8s.io/kueue/pkg/util/dra"
	"sigs.k8s.io/kueue/pkg/util/expectations"
)

// release holds what this Kueue release's setup shares between its steps:
// the resource formatter and the DRA mapping Kueue's caches, core
// controllers and scheduler are given.
type release struct {
	formatter        *resources.ResourceFormatter
	draMapper        *dra.ResourceMapper
	draBacked        *dra.ExtendedResourceCache
	resourceSliceAPI bool
}

// newRelease returns this release's shared setup state and the options it
// adds to Kueue's scheduler cache and queue manager.
func newRelease(_ context.Context, mgr ctrl.Manager, cfg *configapi.Configuration) (*release, []schdcache.Option, []qcache.Option, error) {
	r := &release{formatter: resources.NewResourceFormatter()}
	cacheOpts := []schdcache.Option{schdcache.WithResourceFormatter(r.formatter)}
	queueOpts := []qcache.Option{
		qcache.WithResourceMetrics(cfg.Metrics.EnableClusterQueueResources),
		qcache.WithResourceFormatter(r.formatter),
	}
	if features.Enabled(features.KueueDRAIntegration) {
		r.draMapper = dra.NewResourceMapper()
		r.draBacked = dra.NewExtendedResourceCache()
		if cfg.Resources != nil && len(cfg.Resources.DeviceClassMappings) > 0 {
			if err := r.draMapper.PopulateFromConfiguration(cfg.Resources.DeviceClassMappings); err != nil {
				return nil, nil, nil, fmt.Errorf("mapping Kueue's DRA device classes: %w", err)
			}
			for _, name := range r.draMapper.CounterBasedResourceNames() {
				r.formatter.RegisterBinaryFormattedResource(name)
			}
			for _, name := range r.draMapper.CapacityBasedResourceNames() {
				r.formatter.RegisterBinaryFormattedResource(name)
			}
		}
		queueOpts = append(queueOpts, qcache.WithDRABackedResources(r.draBacked))
	}
	if features.Enabled(features.SchedulerLibraryIntegration) {
		// Kueue's scheduling simulator needs k8s.io/kubernetes, which
		// kueue-sim does not build with: Kueue's cmd/kueue alone imports
		// it, so this Kueue acts as one built with exclude_scheduler_library.
		return nil, nil, nil, errors.New("setting up Kueue: the SchedulerLibraryIntegration feature gate needs Kueue's scheduling simulator, which kueue-sim does not build in; disable the gate")
	}
	r.resourceSliceAPI = utildra.CheckResourceSliceAPIAvailable(mgr)
	return r, cacheOpts, queueOpts, nil
}

// setupIndexes adds the ResourceSlice index Kueue's DRA support reads when
// the cluster serves ResourceSlices.
func (r *release) setupIndexes(ctx context.Context, mgr ctrl.Manager) error {
	if !r.resourceSliceAPI {
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
		PreemptionExpectations:    preemption,
		DRAMapper:                 r.draMapper,
		DRABackedResources:        r.draBacked,
		ResourceFormatter:         r.formatter,
		ResourceSliceAPIAvailable: r.resourceSliceAPI,
	})
}

// copyOptions tells Kueue's job integrations which labels and annotations
// of a job to copy to its Workload: with custom metric labels on, those
// the labels are read from as well.
func (*release) copyOptions(cfg *configapi.Configuration) []jobframework.Option {
	labels, annotations := sets.New(cfg.Integrations.LabelKeysToCopy...), sets.New[string]()
	if features.Enabled(features.CustomMetricLabels) {
		labels, annotations = metrics.WorkloadCustomLabelSources(cfg.Metrics.CustomLabels)
		labels.Insert(cfg.Integrations.LabelKeysToCopy...)
	}
	return []jobframework.Option{
		jobframework.WithLabelKeysToCopy(labels),
		jobframework.WithAnnotationsToCopy(annotations),
	}
}

// newScheduler builds Kueue's scheduler, writing with c.
func (r *release) newScheduler(mgr ctrl.Manager, queues *qcache.Manager, cCache *schdcache.Cache, c client.Client, cfg *configapi.Configuration, opts ...scheduler.Option) *scheduler.Scheduler {
	opts = append(opts,
		scheduler.WithQuotaCheckStrategy(quotaCheckStrategy(cfg)),
		scheduler.WithResourceFormatter(r.formatter),
	)
	return scheduler.New(queues, cCache, c, mgr.GetEventRecorder(constants.AdmissionName), opts...)
}
