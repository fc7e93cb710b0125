//go:build !kueue_v0_16 && !kueue_v0_17

// This file builds against Kueue v0.18 and v0.19, which load and validate
// their Configuration, set up their feature-gated controllers, pick the
// scheduler's quota-check strategy and list pending workloads alike; what
// differs between them is in kueue_v018.go and kueue_v019.go.

package kueuesetup

import (
	"fmt"

	"k8s.io/apimachinery/pkg/runtime"
	ctrl "sigs.k8s.io/controller-runtime"
	configapi "sigs.k8s.io/kueue/apis/config/v1beta2"
	qcache "sigs.k8s.io/kueue/pkg/cache/queue"
	kueueconfig "sigs.k8s.io/kueue/pkg/config"
	"sigs.k8s.io/kueue/pkg/controller/concurrentadmission"
	"sigs.k8s.io/kueue/pkg/features"
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

func quotaCheckStrategy(cfg *configapi.Configuration) configapi.QuotaCheckStrategy {
	if features.Enabled(features.QuotaCheckStrategy) && cfg.Resources != nil && cfg.Resources.QuotaCheckStrategy != nil {
		return *cfg.Resources.QuotaCheckStrategy
	}
	return configapi.QuotaCheckBlockUndeclared
}
