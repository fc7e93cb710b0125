package engine

import (
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// inferenceServiceKind is a KServe InferenceService: a predictor of
// minReplicas pods that runs until deleted.
type inferenceServiceKind struct{ longRunning }

var (
	_ workloadKind = inferenceServiceKind{}
	_ kindWithEnd  = inferenceServiceKind{}
)

func (inferenceServiceKind) object(o objectSpec) (client.Object, error) {
	res := podResources(o.stream.Requests)
	return unstructuredObject("serving.kserve.io/v1beta1", "InferenceService", o.meta, map[string]any{
		"predictor": map[string]any{
			"minReplicas": o.replicas,
			"model": map[string]any{
				"modelFormat": map[string]any{"name": "sklearn"},
				"resources":   res,
			},
		},
	})
}
