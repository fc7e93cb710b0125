package features

import (
	kftraining "github.com/kubeflow/training-operator/pkg/apis/kubeflow.org/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
	utiltesting "sigs.k8s.io/kueue/pkg/util/testing/v1beta2"
	testingpytorch "sigs.k8s.io/kueue/pkg/util/testingjobs/pytorchjob"

	"github.com/kueue-sim/kueue-sim/webhook"
)

// pyTorchJob is a one-pod PyTorchJob; queue "" leaves the queue label off.
func pyTorchJob(c Cluster, ns, name, queue string) *testingpytorch.PyTorchJobWrapper {
	w := testingpytorch.MakePyTorchJob(name, ns).PyTorchReplicaSpecsOnlyMasterDefault().
		Image(kftraining.PyTorchJobReplicaTypeMaster, c.Image, nil).
		Request(kftraining.PyTorchJobReplicaTypeMaster, corev1.ResourceCPU, "100m")
	if queue != "" {
		w = w.Queue(queue)
	}
	return w
}

// notebook is a kubeflow.org/v1 Notebook (kueue-sim's CRD, as OpenShift AI
// serves it) on LocalQueue queue.
func notebook(c Cluster, ns, name, queue string) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]any{
		"spec": map[string]any{"template": map[string]any{"spec": map[string]any{
			"containers": []any{map[string]any{
				"name": "notebook", "image": c.Image,
				"resources": map[string]any{"requests": map[string]any{"cpu": "100m"}},
			}},
		}}},
	}}
	u.SetGroupVersionKind(webhook.Notebook.GroupVersionKind)
	u.SetNamespace(ns)
	u.SetName(name)
	u.SetLabels(map[string]string{webhook.QueueLabel: queue})
	return u
}

// clusterQueue is a ClusterQueue with CPU quota on the default flavor,
// for every namespace.
func clusterQueue(name string, p kueue.ClusterQueuePreemption) *kueue.ClusterQueue {
	return utiltesting.MakeClusterQueue(name).
		ResourceGroup(*utiltesting.MakeFlavorQuotas("default-flavor").Resource(corev1.ResourceCPU, "4").Obj()).
		Preemption(p).Obj()
}

func localQueue(ns, name, cq string) *kueue.LocalQueue {
	return utiltesting.MakeLocalQueue(name, ns).ClusterQueue(cq).Obj()
}
