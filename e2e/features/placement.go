package features

import (
	"context"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/e2e-framework/pkg/envconf"
	"sigs.k8s.io/e2e-framework/pkg/features"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
	utiltesting "sigs.k8s.io/kueue/pkg/util/testing/v1beta2"
	testingjob "sigs.k8s.io/kueue/pkg/util/testingjobs/job"

	"github.com/kueue-sim/kueue-sim/nodes"
)

// FlavorPlacement checks that GPU workloads land on their flavor's nodes:
// two flavors, one per GPU model, 8 GPUs of quota each; two Jobs of two
// 4-GPU pods fill the first flavor, then the second, and every pod is bound
// to a node of the GPU model of the flavor Kueue admitted its Job on.
func FlavorPlacement(c Cluster) features.Feature {
	return features.New("flavor-based placement of GPU workloads").
		WithLabel("rule", "placement").
		Setup(func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			k := Client(t, cfg)
			ns := managedNamespace(ctx, t, k, "e2e-placement")
			var flavors []string
			group := []kueue.FlavorQuotas{}
			for _, model := range c.GPUModels {
				rf := utiltesting.MakeResourceFlavor(envconf.RandomName("e2e-gpu", 14)).NodeLabel(nodes.GPUProductLabel, model).Obj()
				create(ctx, t, k, rf)
				flavors = append(flavors, rf.Name)
				group = append(group, *utiltesting.MakeFlavorQuotas(rf.Name).
					Resource(corev1.ResourceCPU, "8").Resource(nodes.GPUResource, "8").Obj())
			}
			cq := utiltesting.MakeClusterQueue(envconf.RandomName("e2e-gpus", 16)).ResourceGroup(group...).Obj()
			create(ctx, t, k, cq)
			create(ctx, t, k, localQueue(ns, "gpus", cq.Name))
			ctx = with(ctx, "flavors", flavors)
			ctx = with(ctx, "cq", cq.Name)
			return with(ctx, "ns", ns)
		}).
		Assess("two Jobs fill the first flavor, then the second, and run on its nodes", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			k, ns, flavors := Client(t, cfg), get[string](ctx, t, "ns"), get[[]string](ctx, t, "flavors")
			for i, name := range []string{"first", "second"} {
				job := testingjob.MakeJob(name, ns).Queue("gpus").Image(c.Image, nil).Parallelism(2).Completions(2).
					RequestAndLimit(nodes.GPUResource, "4").Request(corev1.ResourceCPU, "100m").Obj()
				create(ctx, t, k, job)
				// One at a time: Kueue then tries flavors in order for each.
				wantFlavor, wantModel := flavors[i], c.GPUModels[i]
				eventually(ctx, t, "Job "+name+" admitted on flavor "+wantFlavor+" with its pods on "+wantModel+" nodes", func(ctx context.Context) error {
					return placedOn(ctx, k, ns, name, wantFlavor, wantModel)
				})
			}
			return ctx
		}).
		Teardown(func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			k := Client(t, cfg)
			remove(ctx, t, k, nsObj(get[string](ctx, t, "ns")))
			remove(ctx, t, k, &kueue.ClusterQueue{ObjectMeta: objMeta(get[string](ctx, t, "cq"))})
			for _, f := range get[[]string](ctx, t, "flavors") {
				remove(ctx, t, k, &kueue.ResourceFlavor{ObjectMeta: objMeta(f)})
			}
			return ctx
		}).
		Feature()
}

// placedOn checks that Job name's Workload is admitted with flavor for
// nvidia.com/gpu and that all its pods run on nodes of GPU model.
func placedOn(ctx context.Context, k client.Client, ns, name, flavor, model string) error {
	wl, err := workloadOf(ctx, k, ns, name)
	if err != nil {
		return err
	}
	if !apimeta.IsStatusConditionTrue(wl.Status.Conditions, kueue.WorkloadAdmitted) {
		return errorf("Workload %s not admitted: %v", wl.Name, wl.Status.Conditions)
	}
	for _, psa := range wl.Status.Admission.PodSetAssignments {
		if got := psa.Flavors[nodes.GPUResource]; string(got) != flavor {
			return errorf("Workload %s admitted on flavor %s for %s, want %s", wl.Name, got, nodes.GPUResource, flavor)
		}
	}
	var pods corev1.PodList
	if err := k.List(ctx, &pods, client.InNamespace(ns), client.MatchingLabels{"job-name": name}); err != nil {
		return err
	}
	running := 0
	for _, p := range pods.Items {
		if p.Spec.NodeName == "" {
			return errorf("pod %s not bound yet", p.Name)
		}
		var n corev1.Node
		if err := k.Get(ctx, client.ObjectKey{Name: p.Spec.NodeName}, &n); err != nil {
			return err
		}
		if got := n.Labels[nodes.GPUProductLabel]; got != model {
			return errorf("pod %s on node %s of GPU model %q, want %q", p.Name, n.Name, got, model)
		}
		if p.Status.Phase == corev1.PodRunning {
			running++
		}
	}
	if running < 2 {
		return errorf("%d of 2 pods running", running)
	}
	return nil
}

func objMeta(name string) metav1.ObjectMeta { return metav1.ObjectMeta{Name: name} }
