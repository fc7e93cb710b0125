package cluster

import (
	"context"
	"fmt"
	"time"

	toolscache "k8s.io/client-go/tools/cache"
	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/webhook"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	"github.com/kueue-sim/kueue-sim/sim/kubelet"
	"github.com/kueue-sim/kueue-sim/sim/kueuesetup"
)

// startManager runs Kueue, the fake kubelet and the caller's controllers in
// one manager, and waits until its caches are synced and its webhook server
// answers. Against an existing cluster (Connect) the cluster's kubelets run
// the pods, and Kueue may be the cluster's own (WithoutKueue).
func (cp *ControlPlane) startManager(ctx context.Context, o options, wh webhook.Options) error {
	mopts, kcfg, err := kueuesetup.LoadConfig(cp.Scheme, o.kueueConfigFile)
	if o.kueueConfigData != nil {
		mopts, kcfg, err = kueuesetup.LoadConfigData(cp.Scheme, o.kueueConfigName, o.kueueConfigData)
	}
	if err != nil {
		return err
	}
	mopts.Scheme = cp.Scheme
	if o.workloadTransform != nil {
		setWorkloadTransform(&mopts.Cache, o.workloadTransform)
	}
	if mopts.Cache.NewInformer == nil {
		mopts.Cache.NewInformer = cp.handlers.newInformer
	}
	mopts.Metrics = metricsserver.Options{BindAddress: "0"}
	mopts.HealthProbeBindAddress = "0"
	mopts.WebhookServer = webhook.NewServer(wh)
	if o.noAPIEvents {
		b := newInProcessBroadcaster()
		mopts.EventBroadcaster = b //nolint:staticcheck // the events.k8s.io recorder has no such option; Kueue records through this one
		cp.eventBroadcaster = b
	}
	mgr, err := ctrl.NewManager(cp.Config, mopts)
	if err != nil {
		return fmt.Errorf("making the manager: %w", err)
	}
	if o.noAPIEvents {
		mgr = inProcessEventsManager{mgr}
	}
	cp.Manager = mgr

	mgrCtx, cancel := context.WithCancel(context.Background())
	cp.mgrCancel = cancel
	var kopts []kueuesetup.Option
	if _, real := o.clock.(clock.RealClock); !real {
		// A replay's engine runs Kueue's requeues at simulated times.
		kopts = append(kopts, kueuesetup.WithSchedulerClock(o.clock), kueuesetup.WithCallerRequeues())
	}
	if t, ok := o.clock.(kueuesetup.SimulatedTimers); ok {
		kopts = append(kopts, kueuesetup.WithSimulatedTimers(t))
	}
	if t, ok := o.clock.(kueuesetup.InstantTimers); ok {
		// The engine makes the Workload and LocalQueue reconcilers' waits instants.
		kopts = append(kopts, kueuesetup.WithInstantTimers(t))
		if o.slowKueue > 0 {
			kopts = append(kopts, kueuesetup.WithSlowReconcilers(o.slowKueue))
		}
	}
	if !o.ext.noKueue {
		if cp.Kueue, err = kueuesetup.Setup(mgrCtx, mgr, kcfg, kopts...); err != nil {
			return err
		}
	}
	if !cp.external {
		cp.Kubelet = kubelet.New(mgr.GetClient(), kubelet.WithClock(o.clock))
		if err := cp.Kubelet.SetupWithManager(mgr); err != nil {
			return fmt.Errorf("setting up the fake kubelet: %w", err)
		}
	}
	for _, setup := range o.setups {
		if err := setup(mgr); err != nil {
			return err
		}
	}

	cp.mgrDone = make(chan struct{})
	go func() {
		cp.mgrErr = mgr.Start(mgrCtx)
		close(cp.mgrDone)
	}()
	if !mgr.GetCache().WaitForCacheSync(ctx) {
		return fmt.Errorf("waiting for the manager's caches to sync: %w", ctx.Err())
	}
	started := mgr.GetWebhookServer().StartedChecker()
	for deadline := time.Now().Add(time.Minute); ; {
		if err := started(nil); err == nil {
			return nil
		} else if time.Now().After(deadline) {
			return fmt.Errorf("waiting for the webhook server: %w", err)
		}
		select {
		case <-cp.mgrDone:
			return fmt.Errorf("the manager stopped while starting: %w", cp.mgrErr)
		case <-ctx.Done():
			return fmt.Errorf("waiting for the webhook server: %w", ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// setWorkloadTransform makes f the informer transform for Workloads, after
// the cache's default transform.
func setWorkloadTransform(c *cache.Options, f toolscache.TransformFunc) {
	if c.ByObject == nil {
		c.ByObject = map[client.Object]cache.ByObject{}
	}
	obj := &kueue.Workload{}
	for k := range c.ByObject {
		if _, ok := k.(*kueue.Workload); ok {
			obj = k.(*kueue.Workload)
		}
	}
	by := c.ByObject[obj]
	first := by.Transform
	if first == nil {
		first = c.DefaultTransform
	}
	by.Transform = func(in any) (any, error) {
		if first != nil {
			var err error
			if in, err = first(in); err != nil {
				return nil, err
			}
		}
		return f(in)
	}
	c.ByObject[obj] = by
}
