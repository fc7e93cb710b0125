//go:build kueue_v0_16 || kueue_v0_17

// This file builds against Kueue v0.16 and v0.17 (kueue_v016.go,
// kueue_v017.go hold what differs between them), which load and validate
// their Configuration, set their feature gates, copy labels to Workloads
// and build their scheduler alike, and add no indexes or feature-gated
// controllers of their own.

package kueuesetup

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/runtime"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	configapi "sigs.k8s.io/kueue/apis/config/v1beta2"
	qcache "sigs.k8s.io/kueue/pkg/cache/queue"
	schdcache "sigs.k8s.io/kueue/pkg/cache/scheduler"
	kueueconfig "sigs.k8s.io/kueue/pkg/config"
	"sigs.k8s.io/kueue/pkg/constants"
	"sigs.k8s.io/kueue/pkg/controller/jobframework"
	"sigs.k8s.io/kueue/pkg/scheduler"
)

// loadConfig is Kueue's loader, which validates the Configuration too.
func loadConfig(scheme *runtime.Scheme, path string) (ctrl.Options, configapi.Configuration, error) {
	return kueueconfig.Load(scheme, path)
}

// setFeatureGates sets Kueue's process-wide feature gates from cfg.
func setFeatureGates(cfg *configapi.Configuration, _ *runtime.Scheme) error {
	if err := utilfeature.DefaultMutableFeatureGate.SetFromMap(cfg.FeatureGates); err != nil {
		return fmt.Errorf("setting Kueue feature gates: %w", err)
	}
	return nil
}

// setupIndexes adds the indexes this release adds beside the shared ones:
// none in v0.16 and v0.17.
func (*release) setupIndexes(context.Context, ctrl.Manager) error { return nil }

// setupControllers sets up the feature-gated controllers this release adds
// beside the shared ones: none in v0.16 and v0.17.
func (*release) setupControllers(ctrl.Manager, *qcache.Manager, *configapi.Configuration) error {
	return nil
}

// copyOptions tells Kueue's job integrations which labels of a job to copy
// to its Workload.
func (*release) copyOptions(cfg *configapi.Configuration) []jobframework.Option {
	return []jobframework.Option{jobframework.WithLabelKeysToCopy(cfg.Integrations.LabelKeysToCopy)}
}

// newScheduler builds Kueue's scheduler, writing with c.
func (*release) newScheduler(mgr ctrl.Manager, queues *qcache.Manager, cCache *schdcache.Cache, c client.Client, _ *configapi.Configuration, opts ...scheduler.Option) *scheduler.Scheduler {
	return scheduler.New(queues, cCache, c, mgr.GetEventRecorderFor(constants.AdmissionName), opts...)
}
