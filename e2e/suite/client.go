package suite

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/e2e-framework/pkg/envconf"

	"github.com/kueue-sim/kueue-sim/nodes"
	"github.com/kueue-sim/kueue-sim/scheme"
)

// Client is a client with kueue-sim's scheme on the suite's cluster.
func Client(cfg *envconf.Config) (client.Client, error) {
	s, err := scheme.New()
	if err != nil {
		return nil, err
	}
	c, err := client.New(cfg.Client().RESTConfig(), client.Options{Scheme: s})
	if err != nil {
		return nil, fmt.Errorf("connecting to the e2e cluster: %w", err)
	}
	return c, nil
}

func resources(cpu, memory, gpus string) corev1.ResourceList {
	return corev1.ResourceList{
		corev1.ResourceCPU:    resource.MustParse(cpu),
		corev1.ResourceMemory: resource.MustParse(memory),
		nodes.GPUResource:     resource.MustParse(gpus),
	}
}
