//go:build integration

package cluster_test

import (
	"cmp"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	kftraining "github.com/kubeflow/training-operator/pkg/apis/kubeflow.org/v1"
	rayv1 "github.com/ray-project/kuberay/ray-operator/apis/ray/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
	utiltesting "sigs.k8s.io/kueue/pkg/util/testing/v1beta2"
	testingjob "sigs.k8s.io/kueue/pkg/util/testingjobs/job"
	testingpytorch "sigs.k8s.io/kueue/pkg/util/testingjobs/pytorchjob"
	testingray "sigs.k8s.io/kueue/pkg/util/testingjobs/rayjob"

	"github.com/kueue-sim/kueue-sim/nodes"
	"github.com/kueue-sim/kueue-sim/sim/cluster"
	. "github.com/kueue-sim/kueue-sim/sim/cluster/clustertest"
)

var cp *cluster.ControlPlane

func TestMain(m *testing.M) { Main(m, &cp) }

const gpu = nodes.GPUResource

// gpuQueue makes a ResourceFlavor for the A100 nodes, a ClusterQueue with
// gpus A100 GPUs of quota, and a LocalQueue "lq" in a new namespace.
func gpuQueue(t *testing.T, gpus string) (ns string) {
	t.Helper()
	ns = Namespace(t, cp.Client, nil)
	rf := utiltesting.MakeResourceFlavor("a100-"+ns).NodeLabel(nodes.GPUProductLabel, A100).Obj()
	cq := utiltesting.MakeClusterQueue("cq-" + ns).
		ResourceGroup(*utiltesting.MakeFlavorQuotas(rf.Name).
			Resource(corev1.ResourceCPU, "64").
			Resource(corev1.ResourceMemory, "512Gi").
			Resource(gpu, gpus).Obj()).
		Obj()
	lq := utiltesting.MakeLocalQueue("lq", ns).ClusterQueue(cq.Name).Obj()
	Create(t, cp.Client, rf, cq, lq)
	return ns
}

// workloadOf returns the Workload Kueue made for the named owner.
func workloadOf(ctx context.Context, ns, owner string) (*kueue.Workload, error) {
	var wls kueue.WorkloadList
	if err := cp.Client.List(ctx, &wls, client.InNamespace(ns)); err != nil {
		return nil, err
	}
	for i := range wls.Items {
		for _, ref := range wls.Items[i].OwnerReferences {
			if ref.Name == owner {
				return &wls.Items[i], nil
			}
		}
	}
	return nil, fmt.Errorf("no Workload for %s/%s yet", ns, owner)
}

func admitted(ctx context.Context, ns, owner string) error {
	wl, err := workloadOf(ctx, ns, owner)
	if err != nil {
		return err
	}
	if !apimeta.IsStatusConditionTrue(wl.Status.Conditions, kueue.WorkloadAdmitted) {
		return fmt.Errorf("workload %s not admitted: %v", wl.Name, wl.Status.Conditions)
	}
	return nil
}

// runningPods checks that the Job has want Running pods, each on a node
// labelled with product.
func runningPods(ctx context.Context, ns, job string, want int, product string) ([]corev1.Pod, error) {
	var pods corev1.PodList
	if err := cp.Client.List(ctx, &pods, client.InNamespace(ns), client.MatchingLabels{batchv1.JobNameLabel: job}); err != nil {
		return nil, err
	}
	var running []corev1.Pod
	for _, p := range pods.Items {
		if p.Status.Phase != corev1.PodRunning {
			continue
		}
		var node corev1.Node
		if err := cp.Client.Get(ctx, types.NamespacedName{Name: p.Spec.NodeName}, &node); err != nil {
			return nil, err
		}
		if got := node.Labels[nodes.GPUProductLabel]; got != product {
			return nil, fmt.Errorf("pod %s runs on node %s with %s=%q, want %q", p.Name, node.Name, nodes.GPUProductLabel, got, product)
		}
		running = append(running, p)
	}
	if len(running) != want {
		return nil, fmt.Errorf("job %s has %d running pods of %d, want %d", job, len(running), len(pods.Items), want)
	}
	return running, nil
}

func suspended(ctx context.Context, ns, name string) (bool, error) {
	var j batchv1.Job
	err := cp.Client.Get(ctx, types.NamespacedName{Namespace: ns, Name: name}, &j)
	return ptr.Deref(j.Spec.Suspend, false), err
}

func TestGPUJobIsAdmittedAndPlacedOnItsFlavorsNodes(t *testing.T) {
	ns := gpuQueue(t, "8")
	// Two pods of 4 GPUs: they fit only on the two A100 nodes, and the L4
	// nodes would fit them too if Kueue did not inject the flavor's labels.
	first := testingjob.MakeJob("first", ns).Queue("lq").Parallelism(2).Completions(2).
		RequestAndLimit(gpu, "4").Request(corev1.ResourceCPU, "1").Obj()
	Create(t, cp.Client, first)

	Eventually(t, 30*time.Second, func(ctx context.Context) error { return admitted(ctx, ns, "first") })
	var pods []corev1.Pod
	Eventually(t, 30*time.Second, func(ctx context.Context) (err error) {
		pods, err = runningPods(ctx, ns, "first", 2, A100)
		return err
	})
	if pods[0].Spec.NodeName == pods[1].Spec.NodeName {
		t.Errorf("both 4-GPU pods on node %s, which has 4 GPUs", pods[0].Spec.NodeName)
	}
	if got := pods[0].Spec.NodeSelector[nodes.GPUProductLabel]; got != A100 {
		t.Errorf("pod nodeSelector %s=%q, want Kueue to inject the flavor's %q", nodes.GPUProductLabel, got, A100)
	}

	// A second Job asking for all 8 GPUs does not fit while the first runs.
	second := testingjob.MakeJob("second", ns).Queue("lq").Parallelism(2).Completions(2).
		RequestAndLimit(gpu, "4").Obj()
	Create(t, cp.Client, second)
	Eventually(t, 30*time.Second, func(ctx context.Context) error {
		wl, err := workloadOf(ctx, ns, "second")
		if err != nil {
			return err
		}
		c := apimeta.FindStatusCondition(wl.Status.Conditions, kueue.WorkloadQuotaReserved)
		if c == nil || c.Status != "False" || c.Reason != "Pending" || !strings.Contains(c.Message, "insufficient") {
			return fmt.Errorf("second workload's QuotaReserved condition is %+v, want False/Pending for insufficient quota", c)
		}
		return nil
	})
	Consistently(t, 2*time.Second, func(ctx context.Context) error {
		if s, err := suspended(ctx, ns, "second"); err != nil || !s {
			return fmt.Errorf("second job suspended=%v (err %v) while the first holds the quota", s, err)
		}
		return nil
	})

	// The first Job's pods complete; its quota frees; the second runs.
	for _, p := range pods {
		if err := cp.Kubelet.Finish(context.Background(), client.ObjectKeyFromObject(&p), corev1.PodSucceeded); err != nil {
			t.Fatal(err)
		}
	}
	Eventually(t, 30*time.Second, func(ctx context.Context) error {
		wl, err := workloadOf(ctx, ns, "first")
		if err != nil {
			return err
		}
		if !apimeta.IsStatusConditionTrue(wl.Status.Conditions, kueue.WorkloadFinished) {
			return fmt.Errorf("first workload not Finished: %v", wl.Status.Conditions)
		}
		return nil
	})
	Eventually(t, 30*time.Second, func(ctx context.Context) error {
		_, err := runningPods(ctx, ns, "second", 2, A100)
		return err
	})
}

func TestPyTorchJobIsAdmittedAndUnsuspended(t *testing.T) {
	ns := gpuQueue(t, "4")
	job := testingpytorch.MakePyTorchJob("train", ns).Queue("lq").
		PyTorchReplicaSpecsDefault().
		RequestAndLimit(kftraining.PyTorchJobReplicaTypeMaster, gpu, "1").
		RequestAndLimit(kftraining.PyTorchJobReplicaTypeWorker, gpu, "1").
		Obj()
	Create(t, cp.Client, job)
	Eventually(t, 30*time.Second, func(ctx context.Context) error { return admitted(ctx, ns, "train") })
	Eventually(t, 30*time.Second, func(ctx context.Context) error {
		var got kftraining.PyTorchJob
		if err := cp.Client.Get(ctx, client.ObjectKeyFromObject(job), &got); err != nil {
			return err
		}
		if ptr.Deref(got.Spec.RunPolicy.Suspend, true) {
			return fmt.Errorf("PyTorchJob still suspended")
		}
		for rt, spec := range got.Spec.PyTorchReplicaSpecs {
			if sel := spec.Template.Spec.NodeSelector[nodes.GPUProductLabel]; sel != A100 {
				return fmt.Errorf("%s replicas have nodeSelector %q, want the flavor's %q", rt, sel, A100)
			}
		}
		return nil
	})
}

func TestRayJobIsAdmittedAndUnsuspended(t *testing.T) {
	ns := gpuQueue(t, "4")
	job := testingray.MakeJob("ray", ns).Queue("lq").
		RequestAndLimit(rayv1.HeadNode, gpu, "1").
		RequestAndLimit(rayv1.WorkerNode, gpu, "1").
		Obj()
	Create(t, cp.Client, job)
	Eventually(t, 30*time.Second, func(ctx context.Context) error { return admitted(ctx, ns, "ray") })
	Eventually(t, 30*time.Second, func(ctx context.Context) error {
		var got rayv1.RayJob
		if err := cp.Client.Get(ctx, client.ObjectKeyFromObject(job), &got); err != nil {
			return err
		}
		if got.Spec.Suspend {
			return fmt.Errorf("RayJob still suspended")
		}
		if sel := got.Spec.RayClusterSpec.HeadGroupSpec.Template.Spec.NodeSelector[nodes.GPUProductLabel]; sel != A100 {
			return fmt.Errorf("head nodeSelector %q, want the flavor's %q", sel, A100)
		}
		return nil
	})
}

// Outside replays (`sim up`, these tests' control plane) kube-scheduler and
// kube-controller-manager write their Events to the API server, for
// kubectl describe; a replay's keep them in process (bench's
// TestReplayCluster), which kueue-sim's builds of them do only when their
// kubeconfig asks.
func TestComponentsRecordEventsOutsideReplays(t *testing.T) {
	ns := gpuQueue(t, "4")
	// No GPU: the other tests' pods may hold every A100 of the pool.
	job := testingjob.MakeJob("recorded", ns).Queue("lq").Request(corev1.ResourceCPU, "100m").Obj()
	Create(t, cp.Client, job)
	Eventually(t, 30*time.Second, func(ctx context.Context) error {
		var evs corev1.EventList
		if err := cp.Client.List(ctx, &evs, client.InNamespace(ns)); err != nil {
			return err
		}
		seen := map[string]bool{}
		for _, e := range evs.Items {
			seen[cmp.Or(e.ReportingController, e.Source.Component)+"/"+e.Reason] = true
		}
		for _, want := range []string{"job-controller/SuccessfulCreate", "default-scheduler/Scheduled"} {
			if !seen[want] {
				return fmt.Errorf("no %s Event in %s yet; seen %v", want, ns, seen)
			}
		}
		return nil
	})
}
