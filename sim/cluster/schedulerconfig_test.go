package cluster

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/yaml"
)

// kube-scheduler decodes its configuration strictly and refuses to start on
// an unknown field, so what this test guards is the settings' values: one
// filtering goroutine (ties between nodes break the same way every run), no
// leader election, the rate limits of clientRateLimit.
func TestSchedulerConfig(t *testing.T) {
	var got map[string]any
	if err := yaml.UnmarshalStrict(schedulerConfigFor(`/run/kubeconfigs/kube-scheduler "x".kubeconfig`), &got); err != nil {
		t.Fatalf("the configuration is not YAML: %v", err)
	}
	want := map[string]any{
		"apiVersion":     "kubescheduler.config.k8s.io/v1",
		"kind":           "KubeSchedulerConfiguration",
		"parallelism":    float64(1),
		"leaderElection": map[string]any{"leaderElect": false},
		"clientConnection": map[string]any{
			"kubeconfig": `/run/kubeconfigs/kube-scheduler "x".kubeconfig`,
			"qps":        float64(clientQPS),
			"burst":      float64(clientBurst),
		},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("kube-scheduler's configuration (-want +got):\n%s", diff)
	}
}
