package engine

import (
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/kueue-sim/kueue-sim/sim/fakes"
)

// inferenceServiceKind is a KServe InferenceService: a predictor of
// minReplicas pods that runs until deleted.
type inferenceServiceKind struct{ longRunning }

var (
	_ workloadKind      = inferenceServiceKind{}
	_ kindWithEnd       = inferenceServiceKind{}
	_ kindWithOperators = inferenceServiceKind{}
)

func (inferenceServiceKind) object(o objectSpec) (client.Object, error) {
	res := podResources(o.stream.Requests)
	return unstructuredObject("serving.kserve.io/v1beta1", "InferenceService", o.meta, map[string]any{
		"predictor": map[string]any{
			// The predictor inlines a pod spec: KServe copies it, with the
			// engine's scheduling gate (hold.go), to the predictor's pods.
			"schedulingGates": o.template("").Spec.SchedulingGates,
			"minReplicas":     o.replicas,
			"model": map[string]any{
				"modelFormat": map[string]any{"name": "sklearn"},
				"resources":   res,
			},
		},
	})
}

// operators: KServe runs InferenceServices (a fake one here).
func (inferenceServiceKind) operators() []fakes.Kind { return []fakes.Kind{fakes.InferenceService} }
