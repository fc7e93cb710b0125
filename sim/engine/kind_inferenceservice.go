package engine

import (
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/kueue-sim/kueue-sim/scenarios"
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
	res := scenarios.PodResources(o.stream.Requests)
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

// fromTemplate: KServe copies the InferenceService's labels to its
// predictor's pods, so the arrival's reach them from the object; the
// predictor's pod spec gets InstantGate.
func (inferenceServiceKind) fromTemplate(o objectSpec, obj client.Object) (client.Object, error) {
	isvc, err := unstructuredOfKind(obj, "InferenceService")
	if err != nil {
		return nil, err
	}
	o.stamp(isvc)
	if err := gateUnstructured(isvc, "spec", "predictor"); err != nil {
		return nil, err
	}
	return isvc, nil
}

// operators: KServe runs InferenceServices (a fake one here).
func (inferenceServiceKind) operators() []fakes.Kind { return []fakes.Kind{fakes.InferenceService} }
