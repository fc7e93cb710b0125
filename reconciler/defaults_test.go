//go:build integration

package reconciler_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	dscv1 "github.com/kueue-sim/kueue-sim/api/datasciencecluster/v1"
	"github.com/kueue-sim/kueue-sim/nodes"
	"github.com/kueue-sim/kueue-sim/reconciler"
	. "github.com/kueue-sim/kueue-sim/reconciler/reconcilertest"
	. "github.com/kueue-sim/kueue-sim/sim/cluster/clustertest"
)

// get waits until obj exists and reads it.
func get(t *testing.T, obj client.Object) {
	t.Helper()
	Eventually(t, Timeout, func(ctx context.Context) error {
		return cp.Client.Get(ctx, client.ObjectKeyFromObject(obj), obj)
	})
}

func flavor(name string) *kueue.ResourceFlavor {
	return &kueue.ResourceFlavor{ObjectMeta: metav1.ObjectMeta{Name: name}}
}

func clusterQueue(name string) *kueue.ClusterQueue {
	return &kueue.ClusterQueue{ObjectMeta: metav1.ObjectMeta{Name: name}}
}

func localQueue(ns, name string) *kueue.LocalQueue {
	return &kueue.LocalQueue{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
}

// update applies change to obj's latest version, retrying on conflicts.
func update(t *testing.T, obj client.Object, change func()) {
	t.Helper()
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		if err := cp.Client.Get(context.Background(), client.ObjectKeyFromObject(obj), obj); err != nil {
			return err
		}
		change()
		return cp.Client.Update(context.Background(), obj)
	})
	if err != nil {
		t.Fatalf("updating %T %s: %v", obj, obj.GetName(), err)
	}
}

// The test pools: 4 GPU nodes with 32 cpu, 256Gi and 4 nvidia.com/gpu each,
// and 2 CPU nodes with 16 cpu and 64Gi.
var poolQuota = []kueue.ResourceGroup{
	{
		CoveredResources: []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory},
		Flavors: []kueue.FlavorQuotas{{Name: reconciler.DefaultFlavor, Resources: []kueue.ResourceQuota{
			{Name: corev1.ResourceCPU, NominalQuota: resource.MustParse("160")},
			{Name: corev1.ResourceMemory, NominalQuota: resource.MustParse("1152Gi")},
		}}},
	},
	{
		CoveredResources: []corev1.ResourceName{reconciler.NvidiaGPU},
		Flavors: []kueue.FlavorQuotas{{Name: reconciler.NvidiaGPUFlavor, Resources: []kueue.ResourceQuota{
			{Name: reconciler.NvidiaGPU, NominalQuota: resource.MustParse("16")},
		}}},
	},
}

// Behaviour 6: the default flavors (GPU ones only when some node has the
// GPU), a non-preemptive ClusterQueue named defaultClusterQueueName that
// selects Kueue-managed namespaces with the nodes' allocatable as quota, and
// a LocalQueue named defaultLocalQueueName in each Kueue-managed namespace,
// each annotated opendatahub.io/managed=false.
func TestDefaultsAreCreatedFromNodeCapacity(t *testing.T) {
	Clean(t, cp.Client)
	ns := NewNamespace(t, cp.Client, map[string]string{dscv1.KueueManagedLabel: "true"})
	dsc := CreateDSC(t, cp.Client, dscv1.Unmanaged, func(k *dscv1.KueueComponent) {
		k.DefaultClusterQueueName, k.DefaultLocalQueueName = "team-cq", "team-lq"
	})
	WaitCondition(t, cp.Client, dsc.Name, metav1.ConditionTrue, dscv1.ReasonReady)

	for _, name := range []string{reconciler.DefaultFlavor, reconciler.NvidiaGPUFlavor} {
		rf := flavor(name)
		get(t, rf)
		if rf.Annotations[dscv1.ManagedAnnotation] != "false" {
			t.Errorf("ResourceFlavor %s annotations %v, want %s=false", name, rf.Annotations, dscv1.ManagedAnnotation)
		}
	}
	if err := Absent(context.Background(), cp.Client, flavor(reconciler.AMDGPUFlavor)); err != nil {
		t.Errorf("no node has amd.com/gpu, yet: %v", err)
	}

	cq := clusterQueue("team-cq")
	get(t, cq)
	if diff := cmp.Diff(poolQuota, cq.Spec.ResourceGroups); diff != "" {
		t.Errorf("ClusterQueue quota (-want +got):\n%s", diff)
	}
	if p := cq.Spec.Preemption; p == nil || p.WithinClusterQueue != kueue.PreemptionPolicyNever || p.ReclaimWithinCohort != kueue.PreemptionPolicyNever {
		t.Errorf("ClusterQueue preemption %+v, want withinClusterQueue and reclaimWithinCohort Never", p)
	}
	wantSel := &metav1.LabelSelector{MatchLabels: map[string]string{dscv1.KueueManagedLabel: "true"}}
	if diff := cmp.Diff(wantSel, cq.Spec.NamespaceSelector); diff != "" {
		t.Errorf("ClusterQueue namespaceSelector (-want +got):\n%s", diff)
	}
	if cq.Annotations[dscv1.ManagedAnnotation] != "false" {
		t.Errorf("ClusterQueue annotations %v, want %s=false", cq.Annotations, dscv1.ManagedAnnotation)
	}
	// Kueue accepts it: its flavors exist and it is active.
	Eventually(t, Timeout, func(ctx context.Context) error {
		if err := cp.Client.Get(ctx, client.ObjectKeyFromObject(cq), cq); err != nil {
			return err
		}
		if !apimeta.IsStatusConditionTrue(cq.Status.Conditions, kueue.ClusterQueueActive) {
			return fmt.Errorf("ClusterQueue %s not active: %v", cq.Name, cq.Status.Conditions)
		}
		return nil
	})

	lq := localQueue(ns, "team-lq")
	get(t, lq)
	if lq.Spec.ClusterQueue != "team-cq" || lq.Annotations[dscv1.ManagedAnnotation] != "false" {
		t.Errorf("LocalQueue %s/%s points at %q with annotations %v, want team-cq and %s=false",
			ns, lq.Name, lq.Spec.ClusterQueue, lq.Annotations, dscv1.ManagedAnnotation)
	}
	got, _, _ := KueueReady(context.Background(), cp.Client, dsc.Name)
	WaitEvent(t, cp.Client, got, "Normal", "Created")

	// An AMD node joins: its flavor is created; the ClusterQueue, created
	// once, keeps its quota.
	amd := nodes.Pool{Name: "amd", Count: 1, Allocatable: corev1.ResourceList{
		corev1.ResourceCPU: resource.MustParse("8"), corev1.ResourceMemory: resource.MustParse("32Gi"),
		reconciler.AMDGPU: resource.MustParse("8"),
	}}
	if err := nodes.Create(context.Background(), cp.Client, amd); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for _, n := range amd.Nodes() {
			if err := cp.Client.Delete(context.Background(), n); err != nil {
				t.Errorf("deleting node %s: %v", n.Name, err)
			}
		}
	})
	get(t, flavor(reconciler.AMDGPUFlavor))
	Consistently(t, time.Second, func(ctx context.Context) error {
		if err := cp.Client.Get(ctx, client.ObjectKeyFromObject(cq), cq); err != nil {
			return err
		}
		if diff := cmp.Diff(poolQuota, cq.Spec.ResourceGroups); diff != "" {
			return fmt.Errorf("ClusterQueue quota changed after a node joined (-want +got):\n%s", diff)
		}
		return nil
	})
}

// Behaviour 6: defaults are never updated: an admin's edits to the
// ClusterQueue, a flavor and a LocalQueue survive later reconciles.
func TestDefaultsEditedByAdminSurviveReconciles(t *testing.T) {
	Clean(t, cp.Client)
	ns := NewNamespace(t, cp.Client, map[string]string{dscv1.KueueManagedLabel: "true"})
	dsc := CreateDSC(t, cp.Client, dscv1.Unmanaged)
	WaitCondition(t, cp.Client, dsc.Name, metav1.ConditionTrue, dscv1.ReasonReady)

	cq, rf, lq := clusterQueue(dscv1.DefaultQueueName), flavor(reconciler.DefaultFlavor), localQueue(ns, dscv1.DefaultQueueName)
	get(t, lq)
	update(t, cq, func() {
		cq.Spec.ResourceGroups[0].Flavors[0].Resources[0].NominalQuota = resource.MustParse("1")
		cq.Spec.CohortName = "shared"
	})
	update(t, rf, func() { rf.Spec.NodeLabels = map[string]string{"pool": "cpu"} })
	update(t, lq, func() { lq.Spec.StopPolicy = ptrTo(kueue.Hold) })

	// Reconciles happen: a new Kueue-managed namespace gets its LocalQueue.
	ns2 := NewNamespace(t, cp.Client, map[string]string{dscv1.LegacyKueueManagedLabel: "true"})
	get(t, localQueue(ns2, dscv1.DefaultQueueName))

	Consistently(t, 2*time.Second, func(ctx context.Context) error {
		if err := cp.Client.Get(ctx, client.ObjectKeyFromObject(cq), cq); err != nil {
			return err
		}
		if q := cq.Spec.ResourceGroups[0].Flavors[0].Resources[0].NominalQuota; q.Cmp(resource.MustParse("1")) != 0 || cq.Spec.CohortName != "shared" {
			return fmt.Errorf("the admin's ClusterQueue edit is gone: cpu quota %s, cohort %q", q.String(), cq.Spec.CohortName)
		}
		if err := cp.Client.Get(ctx, client.ObjectKeyFromObject(rf), rf); err != nil {
			return err
		}
		if rf.Spec.NodeLabels["pool"] != "cpu" {
			return fmt.Errorf("the admin's ResourceFlavor edit is gone: nodeLabels %v", rf.Spec.NodeLabels)
		}
		if err := cp.Client.Get(ctx, client.ObjectKeyFromObject(lq), lq); err != nil {
			return err
		}
		if lq.Spec.StopPolicy == nil || *lq.Spec.StopPolicy != kueue.Hold {
			return fmt.Errorf("the admin's LocalQueue edit is gone: stopPolicy %v", lq.Spec.StopPolicy)
		}
		return nil
	})
}

// Behaviour 6, decided here: a default an admin deletes is absent, so the
// platform re-creates it on its next reconcile (at once: it watches
// deletions), from the current nodes; the admin's edits to the deleted
// object are not carried over.
func TestDefaultsDeletedByAdminAreRecreated(t *testing.T) {
	Clean(t, cp.Client)
	ns := NewNamespace(t, cp.Client, map[string]string{dscv1.KueueManagedLabel: "true"})
	dsc := CreateDSC(t, cp.Client, dscv1.Unmanaged)
	WaitCondition(t, cp.Client, dsc.Name, metav1.ConditionTrue, dscv1.ReasonReady)

	for _, obj := range []client.Object{clusterQueue(dscv1.DefaultQueueName), localQueue(ns, dscv1.DefaultQueueName)} {
		get(t, obj)
		if cq, ok := obj.(*kueue.ClusterQueue); ok {
			update(t, cq, func() { cq.Spec.ResourceGroups[0].Flavors[0].Resources[0].NominalQuota = resource.MustParse("1") })
		}
		old := obj.GetUID()
		if err := cp.Client.Delete(context.Background(), obj); err != nil {
			t.Fatal(err)
		}
		Eventually(t, Timeout, func(ctx context.Context) error {
			if err := cp.Client.Get(ctx, client.ObjectKeyFromObject(obj), obj); err != nil {
				return err
			}
			if obj.GetUID() == old {
				return fmt.Errorf("%T %s not re-created yet", obj, obj.GetName())
			}
			return nil
		})
		if cq, ok := obj.(*kueue.ClusterQueue); ok {
			if diff := cmp.Diff(poolQuota, cq.Spec.ResourceGroups); diff != "" {
				t.Errorf("re-created ClusterQueue quota (-want +got):\n%s", diff)
			}
		}
	}
}

func ptrTo[T any](v T) *T { return &v }
