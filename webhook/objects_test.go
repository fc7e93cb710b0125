//go:build integration

package webhook_test

import (
	"context"
	"maps"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
	utiltesting "sigs.k8s.io/kueue/pkg/util/testing/v1beta2"
	testingpytorch "sigs.k8s.io/kueue/pkg/util/testingjobs/pytorchjob"
	testingraycluster "sigs.k8s.io/kueue/pkg/util/testingjobs/raycluster"
	testingrayjob "sigs.k8s.io/kueue/pkg/util/testingjobs/rayjob"

	infrav1 "github.com/kueue-sim/kueue-sim/api/infrastructure/v1"
	"github.com/kueue-sim/kueue-sim/sim/cluster/clustertest"
	"github.com/kueue-sim/kueue-sim/webhook"
)

// newWorkload makes an object of a covered kind: typed for the kinds Kueue
// integrates (valid for Kueue's own webhooks), unstructured for Notebook and
// InferenceService.
func newWorkload(kind webhook.Kind, ns, name string, labels, annotations map[string]string) client.Object {
	var obj client.Object
	switch kind {
	case webhook.PyTorchJob:
		obj = testingpytorch.MakePyTorchJob(name, ns).PyTorchReplicaSpecsDefault().Obj()
	case webhook.RayJob:
		obj = testingrayjob.MakeJob(name, ns).Obj()
	case webhook.RayCluster:
		obj = testingraycluster.MakeCluster(name, ns).Obj()
	default:
		u := &unstructured.Unstructured{Object: map[string]any{}}
		u.SetGroupVersionKind(kind.GroupVersionKind)
		u.SetNamespace(ns)
		u.SetName(name)
		spec := map[string]any{"template": map[string]any{"spec": map[string]any{
			"containers": []any{map[string]any{"name": "notebook", "image": "jupyter"}}}}}
		if kind == webhook.InferenceService {
			spec = map[string]any{"predictor": map[string]any{"model": map[string]any{"modelFormat": map[string]any{"name": "sklearn"}}}}
		}
		u.Object["spec"] = spec
		obj = u
	}
	obj.SetLabels(maps.Clone(labels))
	if len(annotations) > 0 {
		all := obj.GetAnnotations()
		if all == nil {
			all = map[string]string{}
		}
		maps.Copy(all, annotations)
		obj.SetAnnotations(all)
	}
	return obj
}

// create creates a fresh workload and returns the API server's answer.
func create(kind webhook.Kind, ns, name string, labels, annotations map[string]string) (client.Object, error) {
	obj := newWorkload(kind, ns, name, labels, annotations)
	return obj, cp.Client.Create(context.Background(), obj)
}

func queue(name string) map[string]string { return map[string]string{webhook.QueueLabel: name} }

// queueProfile makes a HardwareProfile of scheduling type Queue.
func queueProfile(ns, name, lq, priorityClass string) *infrav1.HardwareProfile {
	return &infrav1.HardwareProfile{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Spec: infrav1.HardwareProfileSpec{Scheduling: &infrav1.SchedulingSpec{
			Type: infrav1.QueueScheduling, Kueue: &infrav1.KueueSchedulingSpec{LocalQueueName: lq, PriorityClass: priorityClass},
		}},
	}
}

// nodeProfile makes a HardwareProfile of scheduling type Node.
func nodeProfile(ns, name string) *infrav1.HardwareProfile {
	return &infrav1.HardwareProfile{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Spec: infrav1.HardwareProfileSpec{Scheduling: &infrav1.SchedulingSpec{
			Type: infrav1.NodeScheduling,
			Node: &infrav1.NodeSchedulingSpec{
				NodeSelector: map[string]string{"nvidia.com/gpu.product": "NVIDIA-A100-SXM4-80GB"},
				Tolerations:  []corev1.Toleration{{Key: "nvidia.com/gpu", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule}},
			},
		}},
	}
}

// queues creates ClusterQueue cq (named after ns) with the given preemption
// and cohort, and LocalQueue lq pointing to it in ns; it returns the
// ClusterQueue's name.
func queues(t *testing.T, ns, lq string, cohort kueue.CohortReference, p kueue.ClusterQueuePreemption) string {
	t.Helper()
	name := lq + "-" + ns
	w := utiltesting.MakeClusterQueue(name).Cohort(cohort).Preemption(p).
		ResourceGroup(*utiltesting.MakeFlavorQuotas("default-flavor").Resource(corev1.ResourceCPU, "8").Obj())
	clustertest.Create(t, cp.Client, w.Obj(), utiltesting.MakeLocalQueue(lq, ns).ClusterQueue(name).Obj())
	return name
}
