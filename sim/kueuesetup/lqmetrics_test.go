//go:build !kueue_v0_16

package kueuesetup

import (
	"testing"

	configapi "sigs.k8s.io/kueue/apis/config/v1beta2"
	"sigs.k8s.io/kueue/pkg/metrics"
)

// TestLocalQueueMetricsAreOff: whatever the configuration says, the copy
// Kueue is set up with has its LocalQueue metrics off, and the caller's
// configuration is left as it was.
func TestLocalQueueMetricsAreOff(t *testing.T) {
	for name, given := range map[string]*configapi.LocalQueueMetrics{
		"default":  nil,
		"enabled":  {Enable: true},
		"disabled": {Enable: false},
	} {
		t.Run(name, func(t *testing.T) {
			cfg := &configapi.Configuration{}
			cfg.Metrics.LocalQueueMetrics = given
			got := withoutLocalQueueMetrics(cfg)
			if metrics.NewLocalQueueMetricsConfig(got.Metrics.LocalQueueMetrics).IsEnabled() {
				t.Errorf("Kueue's LocalQueue metrics are on")
			}
			if cfg.Metrics.LocalQueueMetrics != given {
				t.Errorf("the given configuration was changed: %+v", cfg.Metrics.LocalQueueMetrics)
			}
		})
	}
}
