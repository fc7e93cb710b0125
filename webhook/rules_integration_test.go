//go:build integration

package webhook_test

import (
	"context"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/rand"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
	utiltesting "sigs.k8s.io/kueue/pkg/util/testing/v1beta2"
	testingjob "sigs.k8s.io/kueue/pkg/util/testingjobs/job"

	dscv1 "github.com/kueue-sim/kueue-sim/api/datasciencecluster/v1"
	"github.com/kueue-sim/kueue-sim/sim/cluster/clustertest"
	"github.com/kueue-sim/kueue-sim/webhook"
)

const (
	validating = webhook.ValidatingWebhookName
	mutating   = webhook.MutatingWebhookName
)

var nonPreemptive = kueue.ClusterQueuePreemption{}

func TestQueueLabelIsRequiredInKueueManagedNamespaces(t *testing.T) {
	kueueState(t, dscv1.Unmanaged)
	ns := clustertest.Namespace(t, cp.Client, managedLabels)
	// Not "default": Kueue itself would label its own kinds (see
	// TestKueueGivesItsOwnKindsTheDefaultLocalQueue).
	queues(t, ns, "team", "", nonPreemptive)
	for _, kind := range webhook.Kinds() {
		t.Run(kind.Kind, func(t *testing.T) {
			name := strings.ToLower(kind.Kind)
			_, err := create(kind, ns, name, nil, nil)
			denied(t, err, validating,
				kind.Kind+` "`+name+`" in namespace "`+ns+`" must name a Kueue LocalQueue in the label kueue.x-k8s.io/queue-name`,
				"label kueue.openshift.io/managed=true", `DataScienceCluster "default-dsc" has Kueue Unmanaged`,
				"To fix: add the label kueue.x-k8s.io/queue-name=<LocalQueue name>", "kubectl get localqueues -n "+ns)
			absent(t, kind, ns, name)
			_, err = create(kind, ns, name, queue(""), nil)
			switch {
			case kind == webhook.Notebook || kind == webhook.InferenceService:
				denied(t, err, validating, "has an empty label kueue.x-k8s.io/queue-name")
			case err == nil:
				// Kueue's own webhook refuses an empty queue name too, and
				// validating webhooks run in parallel: either refusal will do.
				t.Error("admitted with an empty queue label")
			}
			_, err = create(kind, ns, name, queue("team"), nil)
			admitted(t, err)
		})
	}
}

// Kueue's LocalQueueDefaulting (on by default) labels the kinds Kueue
// integrates (PyTorchJob, RayJob, RayCluster) with the LocalQueue "default"
// when the namespace has one, before any validating webhook runs: for those
// kinds rule 1 then only bites in namespaces without a "default"
// LocalQueue. Notebook and InferenceService get no such help.
func TestKueueGivesItsOwnKindsTheDefaultLocalQueue(t *testing.T) {
	kueueState(t, dscv1.Unmanaged)
	ns := clustertest.Namespace(t, cp.Client, managedLabels)
	queues(t, ns, "default", "", nonPreemptive)
	var job client.Object
	clustertest.Eventually(t, 10*time.Second, func(context.Context) error {
		// Kueue's queue cache learns about the LocalQueue asynchronously.
		var err error
		job, err = create(webhook.PyTorchJob, ns, "train-"+rand.String(5), nil, nil)
		return err
	})
	get(t, job)
	if got := job.GetLabels()[webhook.QueueLabel]; got != "default" {
		t.Errorf("queue label %q, want Kueue's default", got)
	}
	_, err := create(webhook.Notebook, ns, "nb", nil, nil)
	denied(t, err, validating, "must name a Kueue LocalQueue")
}

func TestQueueLabelIsRequiredWithTheLegacyLabelAndKueueManaged(t *testing.T) {
	kueueState(t, dscv1.Managed)
	ns := clustertest.Namespace(t, cp.Client, legacyLabels)
	queues(t, ns, "team", "", nonPreemptive)
	_, err := create(webhook.RayJob, ns, "ray", nil, nil)
	denied(t, err, validating, "label kueue-managed=true", "Kueue Managed")
	_, err = create(webhook.RayJob, ns, "ray", queue("team"), nil)
	admitted(t, err)
}

func TestQueueLabelIsNotRequiredOutsideThePolicy(t *testing.T) {
	for _, tc := range []struct {
		name   string
		state  dscv1.ManagementState
		labels map[string]string
	}{
		{"namespace not Kueue-managed", dscv1.Unmanaged, nil},
		{"Kueue Removed", dscv1.Removed, managedLabels},
		{"no DataScienceCluster", "", managedLabels},
	} {
		t.Run(tc.name, func(t *testing.T) {
			kueueState(t, tc.state)
			ns := clustertest.Namespace(t, cp.Client, tc.labels)
			for _, kind := range webhook.Kinds() {
				_, err := create(kind, ns, strings.ToLower(kind.Kind), nil, nil)
				admitted(t, err)
			}
		})
	}
	t.Run("other kinds", func(t *testing.T) {
		kueueState(t, dscv1.Unmanaged)
		ns := clustertest.Namespace(t, cp.Client, managedLabels)
		admitted(t, cp.Client.Create(context.Background(), testingjob.MakeJob("batch", ns).Obj()))
	})
}

func TestObjectsBeingDeletedAreAllowed(t *testing.T) {
	ctx := context.Background()
	kueueState(t, dscv1.Unmanaged)
	ns := clustertest.Namespace(t, cp.Client, managedLabels)
	queues(t, ns, "default", "", nonPreemptive)
	const finalizer = "kueue-sim.io/test"
	nb, err := create(webhook.Notebook, ns, "nb", queue("default"), nil)
	admitted(t, err)
	controllerutil.AddFinalizer(nb, finalizer)
	admitted(t, cp.Client.Update(ctx, nb))
	admitted(t, cp.Client.Delete(ctx, nb))
	get(t, nb)
	// An update that would be refused on a live object: the label goes.
	nb.SetLabels(nil)
	controllerutil.RemoveFinalizer(nb, finalizer)
	admitted(t, cp.Client.Update(ctx, nb))
	absent(t, webhook.Notebook, ns, "nb")
}

func TestQueueLabelIsCheckedOnUpdate(t *testing.T) {
	ctx := context.Background()
	kueueState(t, dscv1.Unmanaged)
	ns := clustertest.Namespace(t, cp.Client, nil)
	queues(t, ns, "default", "", nonPreemptive)
	nb, err := create(webhook.Notebook, ns, "nb", nil, nil)
	admitted(t, err)
	nsObj := namespaceObj(t, ns)
	nsObj.Labels = managedLabels
	admitted(t, cp.Client.Update(ctx, nsObj))

	nb.SetAnnotations(map[string]string{"note": "edited"})
	denied(t, cp.Client.Update(ctx, nb), validating, `Notebook "nb" in namespace "`+ns+`" must name a Kueue LocalQueue`)
	get(t, nb)
	nb.SetLabels(queue("default"))
	admitted(t, cp.Client.Update(ctx, nb))
}

func namespaceObj(t *testing.T, name string) *corev1.Namespace {
	t.Helper()
	ns := &corev1.Namespace{}
	if err := cp.Client.Get(context.Background(), client.ObjectKey{Name: name}, ns); err != nil {
		t.Fatal(err)
	}
	return ns
}

func TestHardwareProfileSetsQueueAndPriorityClass(t *testing.T) {
	kueueState(t, dscv1.Unmanaged)
	profiles := clustertest.Namespace(t, cp.Client, nil)
	ns := clustertest.Namespace(t, cp.Client, managedLabels)
	queues(t, ns, "gpu-queue", "", nonPreemptive)
	pc := "high-" + ns
	clustertest.Create(t, cp.Client,
		queueProfile(profiles, "gpu", "gpu-queue", pc),
		utiltesting.MakeWorkloadPriorityClass(pc).PriorityValue(100).Obj())
	ann := map[string]string{webhook.HardwareProfileNameAnnotation: "gpu", webhook.HardwareProfileNamespaceAnnotation: profiles}
	for _, kind := range webhook.Kinds() {
		t.Run(kind.Kind, func(t *testing.T) {
			// No queue label: the mutating webhook sets it before the
			// validating one requires it.
			obj, err := create(kind, ns, strings.ToLower(kind.Kind), nil, ann)
			admitted(t, err)
			get(t, obj)
			if got := obj.GetLabels()[webhook.QueueLabel]; got != "gpu-queue" {
				t.Errorf("queue label %q, want the profile's gpu-queue", got)
			}
			if got := obj.GetLabels()[webhook.PriorityClassLabel]; got != pc {
				t.Errorf("priority-class label %q, want the profile's %s", got, pc)
			}
		})
	}
}

func TestHardwareProfileNamespaceDefaultsToTheWorkloads(t *testing.T) {
	kueueState(t, dscv1.Unmanaged)
	ns := clustertest.Namespace(t, cp.Client, managedLabels)
	queues(t, ns, "gpu-queue", "", nonPreemptive)
	clustertest.Create(t, cp.Client, queueProfile(ns, "gpu", "gpu-queue", "None"))
	obj, err := create(webhook.Notebook, ns, "nb", nil, map[string]string{webhook.HardwareProfileNameAnnotation: "gpu"})
	admitted(t, err)
	get(t, obj)
	if got := obj.GetLabels()[webhook.QueueLabel]; got != "gpu-queue" {
		t.Errorf("queue label %q, want gpu-queue", got)
	}
	if got, ok := obj.GetLabels()[webhook.PriorityClassLabel]; ok {
		t.Errorf("priority-class label %q set from the dashboard's None", got)
	}
}

func TestHardwareProfileReplacesADifferentQueueWithAWarning(t *testing.T) {
	kueueState(t, dscv1.Unmanaged)
	ns := clustertest.Namespace(t, cp.Client, managedLabels)
	queues(t, ns, "gpu-queue", "", nonPreemptive)
	clustertest.Create(t, cp.Client, queueProfile(ns, "gpu", "gpu-queue", ""))
	c, w := warningClient(t)
	obj := newWorkload(webhook.PyTorchJob, ns, "train", queue("mine"), map[string]string{webhook.HardwareProfileNameAnnotation: "gpu"})
	admitted(t, c.Create(context.Background(), obj))
	get(t, obj)
	if got := obj.GetLabels()[webhook.QueueLabel]; got != "gpu-queue" {
		t.Errorf("queue label %q, want the profile's gpu-queue", got)
	}
	want := `PyTorchJob "train" in namespace "` + ns + `": label kueue.x-k8s.io/queue-name="mine" replaced by "gpu-queue" from HardwareProfile "gpu"`
	for _, got := range w.all() {
		if strings.Contains(got, want) {
			return
		}
	}
	t.Errorf("no warning containing %q among %q", want, w.all())
}

func TestMissingHardwareProfileIsRefused(t *testing.T) {
	kueueState(t, dscv1.Unmanaged)
	// Rule 2 holds in every namespace.
	ns := clustertest.Namespace(t, cp.Client, nil)
	_, err := create(webhook.InferenceService, ns, "isvc", nil, map[string]string{webhook.HardwareProfileNameAnnotation: "gone"})
	denied(t, err, mutating,
		`InferenceService "isvc" in namespace "`+ns+`" names HardwareProfile "gone" in namespace "`+ns+`"`, "which does not exist",
		"To fix: name an existing profile (`kubectl get hardwareprofiles -n "+ns+"`)")
	absent(t, webhook.InferenceService, ns, "isvc")
}

func TestNodeProfileIsRefusedInKueueManagedNamespaces(t *testing.T) {
	kueueState(t, dscv1.Unmanaged)
	ns := clustertest.Namespace(t, cp.Client, managedLabels)
	queues(t, ns, "default", "", nonPreemptive)
	clustertest.Create(t, cp.Client, nodeProfile(ns, "a100-nodes"))
	ann := map[string]string{webhook.HardwareProfileNameAnnotation: "a100-nodes"}
	_, err := create(webhook.RayCluster, ns, "ray", queue("default"), ann)
	denied(t, err, validating, `RayCluster "ray" in namespace "`+ns+`" uses HardwareProfile "a100-nodes"`,
		"scheduling type is Node", "To fix: use a HardwareProfile of scheduling type Queue",
		"ResourceFlavor carries that placement")

	other := clustertest.Namespace(t, cp.Client, nil)
	clustertest.Create(t, cp.Client, nodeProfile(other, "a100-nodes"))
	_, err = create(webhook.RayCluster, other, "ray", nil, ann)
	admitted(t, err)
}

func TestAcceleratorProfileIsRefusedInKueueManagedNamespaces(t *testing.T) {
	kueueState(t, dscv1.Unmanaged)
	ns := clustertest.Namespace(t, cp.Client, managedLabels)
	queues(t, ns, "default", "", nonPreemptive)
	ann := map[string]string{webhook.AcceleratorNameAnnotation: "nvidia-gpu"}
	_, err := create(webhook.Notebook, ns, "nb", queue("default"), ann)
	denied(t, err, validating, `Notebook "nb" in namespace "`+ns+`" uses AcceleratorProfile "nvidia-gpu"`,
		"deprecated", "To fix: migrate to hardware profiles: remove the annotation opendatahub.io/accelerator-name")

	other := clustertest.Namespace(t, cp.Client, nil)
	_, err = create(webhook.Notebook, other, "nb", nil, ann)
	admitted(t, err)
}

func TestNotebooksOnlyOnNonPreemptiveClusterQueues(t *testing.T) {
	kueueState(t, dscv1.Unmanaged)
	ns := clustertest.Namespace(t, cp.Client, managedLabels)
	lower := kueue.PreemptionPolicyLowerPriority

	// Like the platform's default ClusterQueue: Never and Never, selecting
	// Kueue-managed namespaces.
	def := utiltesting.MakeClusterQueue("default-" + ns).
		Preemption(kueue.ClusterQueuePreemption{WithinClusterQueue: kueue.PreemptionPolicyNever, ReclaimWithinCohort: kueue.PreemptionPolicyNever}).
		NamespaceSelector(&metav1.LabelSelector{MatchLabels: managedLabels}).
		ResourceGroup(*utiltesting.MakeFlavorQuotas("default-flavor").Resource("cpu", "8").Obj()).Obj()
	clustertest.Create(t, cp.Client, def, utiltesting.MakeLocalQueue("default", ns).ClusterQueue(def.Name).Obj())
	_, err := create(webhook.Notebook, ns, "on-default", queue("default"), nil)
	admitted(t, err)

	risky := queues(t, ns, "batch", "", kueue.ClusterQueuePreemption{WithinClusterQueue: lower})
	_, err = create(webhook.Notebook, ns, "on-batch", queue("batch"), nil)
	denied(t, err, validating, `Notebook "on-batch" in namespace "`+ns+`" names LocalQueue "batch"`,
		`ClusterQueue "`+risky+`" is preemptive`, "preemption.withinClusterQueue is LowerPriority",
		"must not be preempted", "To fix: name a LocalQueue whose ClusterQueue has preemption.withinClusterQueue Never")
	_, err = create(webhook.PyTorchJob, ns, "train", queue("batch"), nil)
	admitted(t, err)

	cohort := kueue.CohortReference("c-" + ns)
	queues(t, ns, "borrower", cohort, nonPreemptive)
	reclaimer := queues(t, ns, "reclaimer", cohort, kueue.ClusterQueuePreemption{ReclaimWithinCohort: kueue.PreemptionPolicyAny})
	_, err = create(webhook.Notebook, ns, "on-borrower", queue("borrower"), nil)
	denied(t, err, validating, `it can borrow in cohort "`+string(cohort)+`", where ClusterQueue "`+reclaimer+`" has preemption.reclaimWithinCohort Any`)

	_, err = create(webhook.Notebook, ns, "nowhere", queue("missing"), nil)
	denied(t, err, validating, `LocalQueue "missing", which does not exist in namespace "`+ns+`"`)

	// Moving an admitted Notebook onto a preemptive queue is refused too.
	obj := newWorkload(webhook.Notebook, ns, "on-default", nil, nil)
	get(t, obj)
	obj.SetLabels(queue("batch"))
	denied(t, cp.Client.Update(context.Background(), obj), validating, `ClusterQueue "`+risky+`" is preemptive`)
}
