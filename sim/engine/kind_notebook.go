package engine

import (
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// notebookKind is a Kubeflow Notebook: one pod, named for the workload,
// that runs until deleted.
type notebookKind struct{ longRunning }

var (
	_ workloadKind = notebookKind{}
	_ kindWithEnd  = notebookKind{}
)

func (notebookKind) object(o objectSpec) (client.Object, error) {
	t := o.template(o.meta.Name)
	t.Spec.RestartPolicy = corev1.RestartPolicyAlways
	return unstructuredObject("kubeflow.org/v1", "Notebook", o.meta, map[string]any{"template": t})
}
