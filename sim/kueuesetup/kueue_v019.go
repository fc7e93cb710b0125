//go:build kueue_v0_19

// This file builds against Kueue v0.19 (-tags kueue_v0_19 with
// hack/kueue/v0.19.2.mod). Its twin, kueue_v017.go, builds against Kueue
// v0.17 (the module's go.mod): the two releases wire their setup
// differently (feature gates, core controllers, the scheduler's event
// recorder, the queue manager's lookups), and each file does it as that
// release's cmd/kueue does.

package kueuesetup

import (
	"context"
	"errors"
	"fmt"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/sets"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	configapi "sigs.k8s.io/kueue/apis/config/v1beta2"
	qcache "sigs.k8s.io/kueue/pkg/cache/queue"
	schdcache "sigs.k8s.io/kueue/pkg/cache/scheduler"
	kueueconfig "sigs.k8s.io/kueue/pkg/config"
	"sigs.k8s.io/kueue/pkg/constants"
	"sigs.k8s.io/kueue/pkg/controller/concurrentadmission"
	"sigs.k8s.io/kueue/pkg/controller/core"
	"sigs.k8s.io/kueue/pkg/controller/jobframework"
	"sigs.k8s.io/kueue/pkg/dra"
	"sigs.k8s.io/kueue/pkg/features"
	"sigs.k8s.io/kueue/pkg/metrics"
	"sigs.k8s.io/kueue/pkg/resources"
	"sigs.k8s.io/kueue/pkg/scheduler"
	utildra "sigs.k8s.io/kueue/pkg/util/dra"
	"sigs.k8s.io/kueue/pkg/util/expectations"
	"sigs.k8s.io/kueue/pkg/workload"
)

// loadConfig is Kueue's loader, then the Configuration's feature gates set
// and the Configuration validated against them (setFeatureGates), in the
// order Kueue's cmd/kueue takes: this release's loader leaves validation
// to its caller, and validation reads the process-wide gates, so it must
// see the Configuration's gates, not Kueue's defaults.
func loadConfig(scheme *runtime.Scheme, path string) (ctrl.Options, configapi.Configuration, error) {
	opts, cfg, err := kueueconfig.Load(scheme, path)
	if err != nil {
		return opts, cfg, err
	}
	if err := setFeatureGates(&cfg, scheme); err != nil {
		return opts, cfg, err
	}
	return opts, cfg, nil
}

// setFeatureGates sets Kueue's process-wide feature gates from cfg and
// checks them and cfg against each other, as Kueue's cmd/kueue does.
func setFeatureGates(cfg *configapi.Configuration, scheme *runtime.Scheme) error {
	if err := kueueconfig.LoadAndValidateFeatureGates("", cfg.FeatureGates).ToAggregate(); err != nil {
		return fmt.Errorf("setting Kueue feature gates: %w", err)
	}
	if err := kueueconfig.Validate(cfg, scheme).ToAggregate(); err != nil {
		return fmt.Errorf("validating the Kueue configuration with its feature gates: %w", err)
	}
	return nil
}

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

// setupControllers sets up the feature-gated controllers Kueue's cmd/kueue
// sets up in this release beside the shared ones. Kueue's elastic-job
// ungater (ElasticJobsViaWorkloadSlices) is not among them: its package
// needs the cluster autoscaler's ProvisioningRequest API, which kueue-sim,
// running no provisioning requests, does not build with; no scenario runs
// elastic jobs.
func (*release) setupControllers(mgr ctrl.Manager, queues *qcache.Manager, cfg *configapi.Configuration) error {
	if features.Enabled(features.ConcurrentAdmission) {
		if failed, err := concurrentadmission.SetupControllers(mgr, queues, cfg, nil); err != nil {
			return fmt.Errorf("setting up Kueue ConcurrentAdmission controller %s: %w", failed, err)
		}
	}
	return nil
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

func quotaCheckStrategy(cfg *configapi.Configuration) configapi.QuotaCheckStrategy {
	if features.Enabled(features.QuotaCheckStrategy) && cfg.Resources != nil && cfg.Resources.QuotaCheckStrategy != nil {
		return *cfg.Resources.QuotaCheckStrategy
	}
	return configapi.QuotaCheckBlockUndeclared
}

// queuedInCache tells whether queues holds the Workload namespace/name as
// pending: in its ClusterQueue's heap, among its inadmissible workloads,
// or in the scheduling cycle under way. This release's queue manager
// answers that only per ClusterQueue, listing its pending workloads.
func queuedInCache(queues *qcache.Manager, namespace, name string) bool {
	key := workload.NewReference(namespace, name)
	for _, cq := range queues.GetClusterQueueNames() {
		for _, info := range queues.PendingWorkloadsInfo(cq) {
			if workload.Key(info.Obj) == key {
				return true
			}
		}
	}
	return false
}
