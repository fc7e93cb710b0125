package kueuesetup

import (
	"context"
	"errors"
	"fmt"
	"github.com/go-logr/logr"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/discovery"
	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"
	ctrlmetrics "sigs.k8s.io/controller-runtime/pkg/metrics"
	configapi "sigs.k8s.io/kueue/apis/config/v1beta2"
	qcache "sigs.k8s.io/kueue/pkg/cache/queue"
	schdcache "sigs.k8s.io/kueue/pkg/cache/scheduler"
	"sigs.k8s.io/kueue/pkg/constants"
	"sigs.k8s.io/kueue/pkg/controller/core/indexer"
	"sigs.k8s.io/kueue/pkg/controller/failurerecovery"
	"sigs.k8s.io/kueue/pkg/controller/jobframework"
	"sigs.k8s.io/kueue/pkg/controller/tas"
	tasindexer "sigs.k8s.io/kueue/pkg/controller/tas/indexer"
	"sigs.k8s.io/kueue/pkg/features"
	"sigs.k8s.io/kueue/pkg/metrics"
	"sigs.k8s.io/kueue/pkg/scheduler"
	"sigs.k8s.io/kueue/pkg/scheduler/preemption/fairsharing"
	"sigs.k8s.io/kueue/pkg/util/kubeversion"
	"sigs.k8s.io/kueue/pkg/util/waitforpodsready"
	"sigs.k8s.io/kueue/pkg/webhooks"
)

// Option configures Setup.
type Option func(*options)

type options struct {
	schedulerClock clock.Clock
	timers         SimulatedTimers
	wakes          InstantTimers
	slow           time.Duration // WithSlowReconcilers
	callerRequeues bool
}

// WithCallerRequeues leaves Kueue's requeuing of inadmissible workloads to
// the caller (Kueue.Requeues) instead of Kueue's wall-clock batch: a replay
// runs it at simulated times (see requeues.go).
func WithCallerRequeues() Option { return func(o *options) { o.callerRequeues = true } }

// WithSchedulerClock makes Kueue's scheduler stamp admissions and
// preemptions, and its job integrations stamp PodsReady and Finished and
// measure queued-until-ready time, with c's time (the simulator's virtual
// clock).
func WithSchedulerClock(c clock.Clock) Option { return func(o *options) { o.schedulerClock = c } }

// Kueue is a Kueue wired into a manager. Its caches are readable, so the
// simulator can tell when Kueue has nothing left to do.
type Kueue struct {
	Queues *qcache.Manager
	Cache  *schdcache.Cache
	Config *configapi.Configuration
	// Gate holds Kueue's scheduler between cycles (see SchedulerGate).
	Gate *SchedulerGate
	// Requeues runs Kueue's requeuing of inadmissible workloads when the
	// caller says (WithCallerRequeues); nil: Kueue batches them itself.
	Requeues *Requeues
}

var (
	registerMetrics sync.Once
	setupOnce       sync.Mutex
	setupDone       bool
)

// Metrics holds Kueue's metrics. Kueue registers them with
// controller-runtime's registry, which a run's settle check reads in full at
// every poll for the work queues' depth (Registry.Gather took 6.6 ms a call
// with Kueue's per-ClusterQueue histograms in it, over half of the sim
// process's CPU while Kueue kept workloads active); kueue-sim serves no
// metrics endpoint, so they live here instead.
var Metrics = prometheus.NewRegistry()

// Setup adds Kueue's indexes, controllers, job integrations, webhooks and
// scheduler to mgr, configured by cfg (from LoadConfig). ctx bounds Kueue's
// background goroutines; the manager must be started after Setup returns.
// It may be called once per process.
func Setup(ctx context.Context, mgr ctrl.Manager, cfg *configapi.Configuration, opts ...Option) (*Kueue, error) {
	o := options{}
	for _, opt := range opts {
		opt(&o)
	}
	setupOnce.Lock()
	defer setupOnce.Unlock()
	if setupDone {
		return nil, fmt.Errorf("setting up Kueue: a process runs at most one Kueue (it keeps process-wide state)")
	}
	setupDone = true

	log := ctrl.Log.WithName("kueue-setup")
	if err := setFeatureGates(cfg, mgr.GetScheme()); err != nil {
		return nil, err
	}
	registerMetrics.Do(func() {
		// Kueue registers with controller-runtime's registry; this swap
		// puts its metrics in Metrics instead (see there).
		prev := ctrlmetrics.Registry
		ctrlmetrics.Registry = Metrics
		defer func() { ctrlmetrics.Registry = prev }()
		metrics.Register()
	})

	// Kueue runs with its LocalQueue metrics off, which nothing here can
	// read (lqmetrics.go; v0.16's follow their feature gate); Kueue.Config
	// keeps the configuration as given.
	given := cfg
	cfg = withoutLocalQueueMetrics(cfg)
	cacheOpts, queueOpts := metricsOptions(cfg)
	cacheOpts = append(cacheOpts, schdcache.WithPodsReadyTracking(blockForPodsReady(cfg)))
	queueOpts = append(queueOpts, qcache.WithPodsReadyRequeuingTimestamp(podsReadyRequeuingTimestamp(cfg)))
	if r := cfg.Resources; r != nil {
		if len(r.ExcludeResourcePrefixes) > 0 {
			cacheOpts = append(cacheOpts, schdcache.WithExcludedResourcePrefixes(r.ExcludeResourcePrefixes))
			queueOpts = append(queueOpts, qcache.WithExcludedResourcePrefixes(r.ExcludeResourcePrefixes))
		}
		if len(r.Transformations) > 0 {
			cacheOpts = append(cacheOpts, schdcache.WithResourceTransformations(r.Transformations))
			queueOpts = append(queueOpts, qcache.WithResourceTransformations(r.Transformations))
		}
	}
	if cfg.FairSharing != nil {
		cacheOpts = append(cacheOpts, schdcache.WithFairSharing(fairsharing.Enabled(cfg.FairSharing)))
	}
	if cfg.AdmissionFairSharing != nil {
		queueOpts = append(queueOpts, qcache.WithAdmissionFairSharing(cfg.AdmissionFairSharing))
		cacheOpts = append(cacheOpts, schdcache.WithAdmissionFairSharing(cfg.AdmissionFairSharing))
	}
	rel, relCacheOpts, relQueueOpts, err := newRelease(ctx, mgr, cfg)
	if err != nil {
		return nil, err
	}
	cacheOpts = append(cacheOpts, relCacheOpts...)
	queueOpts = append(queueOpts, relQueueOpts...)
	cCache := schdcache.New(mgr.GetClient(), cacheOpts...)

	preemption, preemptionQueueOpts, preemptionSchedOpts := preemptionExpectations()
	queueOpts = append(queueOpts, preemptionQueueOpts...)
	var notAllReady func() bool
	if blockForPodsReady(cfg) {
		notAllReady = func() bool { return !cCache.PodsReadyForAllAdmittedWorkloads(logr.Discard()) }
	}
	gate := &SchedulerGate{checker: cCache, looked: make(chan struct{}, 1), notAllReady: notAllReady}
	var queues *qcache.Manager
	var requeues *Requeues
	if o.callerRequeues {
		m, r := qcache.NewManagerForUnitTestsWithRequeuer(mgr.GetClient(), gate, queueOpts...)
		var err error
		if requeues, err = newRequeues(m, r); err != nil {
			return nil, err
		}
		queues = m
	} else {
		// Kueue's own requeuer, batching for a wall second.
		m, requeuer := newQueueManager(mgr.GetClient(), gate, queueOpts...)
		if err := mgr.Add(requeuer); err != nil {
			return nil, fmt.Errorf("adding Kueue's workload requeuer: %w", err)
		}
		queues = m
	}
	gate.queues = queues

	if err := indexer.Setup(ctx, mgr.GetFieldIndexer()); err != nil {
		return nil, fmt.Errorf("setting up Kueue's indexes: %w", err)
	}
	if features.Enabled(features.TopologyAwareScheduling) {
		if err := tasindexer.SetupIndexes(ctx, mgr.GetFieldIndexer()); err != nil {
			return nil, fmt.Errorf("setting up Kueue's TAS indexes: %w", err)
		}
	}
	if err := rel.setupIndexes(ctx, mgr); err != nil {
		return nil, err
	}
	if err := jobframework.SetupIndexes(ctx, mgr.GetFieldIndexer(),
		jobframework.WithEnabledFrameworks(cfg.Integrations.Frameworks)); err != nil {
		return nil, fmt.Errorf("setting up Kueue's job indexes: %w", err)
	}

	dc, err := discovery.NewDiscoveryClientForConfig(mgr.GetConfig())
	if err != nil {
		return nil, fmt.Errorf("making a discovery client: %w", err)
	}
	versions := kubeversion.NewServerVersionFetcher(dc)
	if err := mgr.Add(versions); err != nil {
		return nil, fmt.Errorf("adding Kueue's server version fetcher: %w", err)
	}
	if err := versions.FetchServerVersion(); err != nil {
		return nil, fmt.Errorf("fetching the Kubernetes version for Kueue: %w", err)
	}

	if o.wakes != nil && o.schedulerClock == nil {
		return nil, errors.New("WithInstantTimers needs WithSchedulerClock: Kueue's Workload reconciler would wait on simulated time but read the wall clock")
	}
	coreMgr := mgr
	if o.timers != nil || o.wakes != nil {
		sm := newSimulatedTimeManager(mgr, o.timers, o.schedulerClock, o.wakes)
		sm.slow = o.slow
		coreMgr = sm
	}
	if failed, err := rel.setupCoreControllers(coreMgr, queues, cCache, cfg, preemption); err != nil {
		return nil, fmt.Errorf("setting up Kueue controller %s: %w", failed, err)
	}
	if sm, ok := coreMgr.(simulatedTimeManager); ok {
		if err := sm.checkWrapped(); err != nil {
			return nil, err
		}
	}
	if features.Enabled(features.FailureRecoveryPolicy) {
		if failed, err := failurerecovery.SetupControllers(mgr, cfg, nil); err != nil {
			return nil, fmt.Errorf("setting up Kueue controller %s: %w", failed, err)
		}
	}
	if features.Enabled(features.TopologyAwareScheduling) {
		if failed, err := tas.SetupControllers(mgr, queues, cCache, cfg, nil); err != nil {
			return nil, fmt.Errorf("setting up Kueue TAS controller %s: %w", failed, err)
		}
	}
	if err := rel.setupControllers(mgr, queues, cfg); err != nil {
		return nil, err
	}

	nsSelector, err := metav1.LabelSelectorAsSelector(cfg.ManagedJobsNamespaceSelector)
	if err != nil {
		return nil, fmt.Errorf("reading managedJobsNamespaceSelector: %w", err)
	}
	jobOpts := []jobframework.Option{
		jobframework.WithManageJobsWithoutQueueName(cfg.ManageJobsWithoutQueueName),
		jobframework.WithWaitForPodsReady(cfg.WaitForPodsReady),
		jobframework.WithKubeServerVersion(versions),
		jobframework.WithEnabledFrameworks(cfg.Integrations.Frameworks),
		jobframework.WithEnabledExternalFrameworks(cfg.Integrations.ExternalFrameworks),
		jobframework.WithManagerName(constants.KueueName),
		jobframework.WithCache(cCache),
		jobframework.WithQueues(queues),
		jobframework.WithObjectRetentionPolicies(cfg.ObjectRetentionPolicies),
		jobframework.WithManagedJobsNamespaceSelector(nsSelector),
	}
	jobOpts = append(jobOpts, rel.copyOptions(cfg)...)
	if o.schedulerClock != nil {
		jobOpts = append(jobOpts, jobframework.WithClock(o.schedulerClock))
	}
	jobMgr := mgr
	if o.slow > 0 && o.wakes != nil {
		jobMgr = slowManager{Manager: mgr, d: o.slow}
	}
	if err := jobframework.SetupControllers(ctx, jobMgr, log, jobOpts...); err != nil {
		return nil, fmt.Errorf("setting up Kueue's job integrations: %w", err)
	}

	if failed, err := webhooks.Setup(mgr, nil); err != nil {
		return nil, fmt.Errorf("setting up Kueue webhook %s: %w", failed, err)
	}

	go queues.CleanUpOnContext(ctx)
	go cCache.CleanUpOnContext(ctx)

	schedOpts := []scheduler.Option{
		scheduler.WithPodsReadyRequeuingTimestamp(podsReadyRequeuingTimestamp(cfg)),
		scheduler.WithFairSharing(cfg.FairSharing),
		scheduler.WithAdmissionFairSharing(cfg.AdmissionFairSharing),
	}
	schedOpts = append(schedOpts, preemptionSchedOpts...)
	if o.schedulerClock != nil {
		// Kueue guards this option with a testing.TB it does not use.
		schedOpts = append(schedOpts, scheduler.WithClock(nil, o.schedulerClock))
	}
	sched := rel.newScheduler(mgr, queues, cCache, gate.Client(mgr.GetClient()), cfg, schedOpts...)
	if err := mgr.Add(newCycleLoop(sched, gate)); err != nil {
		return nil, fmt.Errorf("adding Kueue's scheduler: %w", err)
	}
	return &Kueue{Queues: queues, Cache: cCache, Config: given, Gate: gate, Requeues: requeues}, nil
}

func blockForPodsReady(cfg *configapi.Configuration) bool {
	return waitforpodsready.Enabled(cfg.WaitForPodsReady) &&
		cfg.WaitForPodsReady.BlockAdmission != nil && *cfg.WaitForPodsReady.BlockAdmission
}

func podsReadyRequeuingTimestamp(cfg *configapi.Configuration) configapi.RequeuingTimestamp {
	if w := cfg.WaitForPodsReady; w != nil && w.RequeuingStrategy != nil && w.RequeuingStrategy.Timestamp != nil {
		return *w.RequeuingStrategy.Timestamp
	}
	return configapi.EvictionTimestamp
}
