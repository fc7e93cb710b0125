package engine

import (
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/kueue-sim/kueue-sim/sim/fakes"
)

// notebookKind is a Kubeflow Notebook: one pod, named for the workload,
// that runs until deleted.
type notebookKind struct{ longRunning }

var (
	_ workloadKind      = notebookKind{}
	_ kindWithEnd       = notebookKind{}
	_ kindWithOperators = notebookKind{}
)

func (notebookKind) object(o objectSpec) (client.Object, error) {
	t := o.template(o.meta.Name)
	t.Spec.RestartPolicy = corev1.RestartPolicyAlways
	return unstructuredObject("kubeflow.org/v1", "Notebook", o.meta, map[string]any{"template": t})
}

// fromTemplate: the notebook controller copies the Notebook's labels to
// its pod, so the arrival's reach it from the object; its pod spec gets
// InstantGate.
func (notebookKind) fromTemplate(o objectSpec, obj client.Object) (client.Object, error) {
	nb, err := unstructuredOfKind(obj, "Notebook")
	if err != nil {
		return nil, err
	}
	o.stamp(nb)
	if err := gateUnstructured(nb, "spec", "template", "spec"); err != nil {
		return nil, err
	}
	return nb, nil
}

// operators: the notebook controller runs Notebooks (a fake one here).
func (notebookKind) operators() []fakes.Kind { return []fakes.Kind{fakes.Notebook} }
