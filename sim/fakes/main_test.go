//go:build integration

package fakes_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
	utiltesting "sigs.k8s.io/kueue/pkg/util/testing/v1beta2"

	"github.com/kueue-sim/kueue-sim/nodes"
	"github.com/kueue-sim/kueue-sim/sim/cluster"
	. "github.com/kueue-sim/kueue-sim/sim/cluster/clustertest"
	"github.com/kueue-sim/kueue-sim/sim/fakes"
)

var cp *cluster.ControlPlane

func TestMain(m *testing.M) { Main(m, &cp, cluster.WithSetup(fakes.SetupFunc())) }

const gpu = nodes.GPUResource

// gpuQueue makes, in a new namespace, a ResourceFlavor for the nodes whose
// GPU product is product, a ClusterQueue with gpus GPUs of quota that
// preempts lower priorities within itself, and a LocalQueue "lq". The
// namespace is deleted when the test ends, so its pods free the nodes.
func gpuQueue(t *testing.T, product, gpus string) (ns string) {
	t.Helper()
	ns = Namespace(t, cp.Client, nil)
	rf := utiltesting.MakeResourceFlavor("rf-"+ns).NodeLabel(nodes.GPUProductLabel, product).Obj()
	cq := utiltesting.MakeClusterQueue("cq-" + ns).
		ResourceGroup(*utiltesting.MakeFlavorQuotas(rf.Name).
			Resource(corev1.ResourceCPU, "64").
			Resource(corev1.ResourceMemory, "512Gi").
			Resource(gpu, gpus).Obj()).
		Preemption(kueue.ClusterQueuePreemption{WithinClusterQueue: kueue.PreemptionPolicyLowerPriority}).
		Obj()
	lq := utiltesting.MakeLocalQueue("lq", ns).ClusterQueue(cq.Name).Obj()
	Create(t, cp.Client, rf, cq, lq)
	t.Cleanup(func() {
		ctx := context.Background()
		_ = cp.Client.Delete(ctx, &corev1.Namespace{ObjectMeta: metaName(ns)})
		_ = cp.Client.Delete(ctx, cq)
		_ = cp.Client.Delete(ctx, rf)
	})
	return ns
}

// workloadsOf returns the Workloads whose owner is named owner.
func workloadsOf(ctx context.Context, ns, owner string) ([]kueue.Workload, error) {
	var wls kueue.WorkloadList
	if err := cp.Client.List(ctx, &wls, client.InNamespace(ns)); err != nil {
		return nil, err
	}
	var out []kueue.Workload
	for _, wl := range wls.Items {
		for _, ref := range wl.OwnerReferences {
			if ref.Name == owner {
				out = append(out, wl)
			}
		}
	}
	return out, nil
}

// workloadCondition checks that owner's one Workload has condition t true.
func workloadCondition(ctx context.Context, ns, owner, t string) error {
	wls, err := workloadsOf(ctx, ns, owner)
	if err != nil {
		return err
	}
	if len(wls) != 1 {
		return fmt.Errorf("%d Workloads for %s/%s, want 1", len(wls), ns, owner)
	}
	if !apimeta.IsStatusConditionTrue(wls[0].Status.Conditions, t) {
		return fmt.Errorf("workload %s has no true %s condition: %v", wls[0].Name, t, wls[0].Status.Conditions)
	}
	return nil
}

// noWorkloads checks that owner has no Workload left, or only finished ones.
func noWorkloads(ctx context.Context, ns, owner string) error {
	wls, err := workloadsOf(ctx, ns, owner)
	if err != nil {
		return err
	}
	for _, wl := range wls {
		if !apimeta.IsStatusConditionTrue(wl.Status.Conditions, kueue.WorkloadFinished) {
			return fmt.Errorf("workload %s of %s/%s still there and not finished: %v", wl.Name, ns, owner, wl.Status.Conditions)
		}
	}
	return nil
}

// running checks that obj has want pods, all Running, and returns them in
// PodsOf's order.
func running(ctx context.Context, obj client.Object, want int) ([]corev1.Pod, error) {
	pods, err := fakes.PodsOf(ctx, cp.Client, obj)
	if err != nil {
		return nil, err
	}
	if len(pods) != want {
		return nil, fmt.Errorf("%s has %d pods, want %d", obj.GetName(), len(pods), want)
	}
	for _, p := range pods {
		if p.Status.Phase != corev1.PodRunning {
			return nil, fmt.Errorf("pod %s is %q, not Running", p.Name, p.Status.Phase)
		}
	}
	return pods, nil
}

// onProduct checks that pods run on nodes labelled with GPU product.
func onProduct(ctx context.Context, pods []corev1.Pod, product string) error {
	for _, p := range pods {
		var node corev1.Node
		if err := cp.Client.Get(ctx, types.NamespacedName{Name: p.Spec.NodeName}, &node); err != nil {
			return err
		}
		if got := node.Labels[nodes.GPUProductLabel]; got != product {
			return fmt.Errorf("pod %s runs on node %s with %s=%q, want %q", p.Name, node.Name, nodes.GPUProductLabel, got, product)
		}
	}
	return nil
}

// runningOn checks that obj has want pods, all Running on nodes labelled
// with GPU product, and returns them.
func runningOn(ctx context.Context, obj client.Object, want int, product string) ([]corev1.Pod, error) {
	pods, err := running(ctx, obj, want)
	if err != nil {
		return nil, err
	}
	return pods, onProduct(ctx, pods, product)
}

// setActive sets spec.active of owner's one Workload: Kueue evicts an
// inactive Workload and suspends its job.
func setActive(t *testing.T, ns, owner string, active bool) {
	t.Helper()
	Eventually(t, 10*time.Second, func(ctx context.Context) error {
		wls, err := workloadsOf(ctx, ns, owner)
		if err != nil {
			return err
		}
		if len(wls) != 1 {
			return fmt.Errorf("%d Workloads for %s/%s, want 1", len(wls), ns, owner)
		}
		wls[0].Spec.Active = ptr.To(active)
		return cp.Client.Update(ctx, &wls[0])
	})
}

// finish ends pods with phase through the fake kubelet.
func finish(t *testing.T, pods []corev1.Pod, phase corev1.PodPhase) {
	t.Helper()
	for _, p := range pods {
		if err := cp.Kubelet.Finish(context.Background(), client.ObjectKeyFromObject(&p), phase); err != nil {
			t.Fatal(err)
		}
	}
}

// get reads obj's current state.
func get(ctx context.Context, obj client.Object) error {
	return cp.Client.Get(ctx, client.ObjectKeyFromObject(obj), obj)
}

func metaName(name string) metav1.ObjectMeta { return metav1.ObjectMeta{Name: name} }
