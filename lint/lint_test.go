package lint

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	kftraining "github.com/kubeflow/training-operator/pkg/apis/kubeflow.org/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
	utiltesting "sigs.k8s.io/kueue/pkg/util/testing/v1beta2"

	dscv1 "github.com/kueue-sim/kueue-sim/api/datasciencecluster/v1"
	infrav1 "github.com/kueue-sim/kueue-sim/api/infrastructure/v1"
	"github.com/kueue-sim/kueue-sim/scheme"
	"github.com/kueue-sim/kueue-sim/webhook"
)

func ns(name string, managed bool) *corev1.Namespace {
	n := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}
	if managed {
		n.Labels = map[string]string{dscv1.KueueManagedLabel: "true"}
	}
	return n
}

func cq(name string, within kueue.PreemptionPolicy) *kueue.ClusterQueue {
	return utiltesting.MakeClusterQueue(name).
		Preemption(kueue.ClusterQueuePreemption{WithinClusterQueue: within, ReclaimWithinCohort: kueue.PreemptionPolicyNever}).
		ResourceGroup(*utiltesting.MakeFlavorQuotas("default-flavor").Resource(corev1.ResourceCPU, "8").Obj()).Obj()
}

func profile(name string, s *infrav1.SchedulingSpec) *infrav1.HardwareProfile {
	return &infrav1.HardwareProfile{ObjectMeta: metav1.ObjectMeta{Namespace: "profiles", Name: name}, Spec: infrav1.HardwareProfileSpec{Scheduling: s}}
}

// notebook makes an unstructured Notebook, as a scenario or a live cluster
// would give it.
func notebook(namespace, name string, labels, annotations map[string]string) client.Object {
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(webhook.Notebook.GroupVersionKind)
	u.SetNamespace(namespace)
	u.SetName(name)
	u.SetLabels(labels)
	u.SetAnnotations(annotations)
	return u
}

func pytorchJob(namespace, name string, labels, annotations map[string]string) client.Object {
	return &kftraining.PyTorchJob{ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name, Labels: labels, Annotations: annotations}}
}

func q(name string) map[string]string { return map[string]string{webhook.QueueLabel: name} }

func TestRun(t *testing.T) {
	d := &dscv1.DataScienceCluster{ObjectMeta: metav1.ObjectMeta{Name: "default-dsc"}}
	d.Spec.Components.Kueue.ManagementState = dscv1.Unmanaged
	gpu := map[string]string{webhook.HardwareProfileNameAnnotation: "gpu", webhook.HardwareProfileNamespaceAnnotation: "profiles"}
	objs := []client.Object{
		d, ns("team-a", true), ns("team-b", true), ns("profiles", false), ns("free", false),
		cq("default", kueue.PreemptionPolicyLowerPriority), cq("team", kueue.PreemptionPolicyNever),
		utiltesting.MakeLocalQueue("default", "team-a").ClusterQueue("default").Obj(),
		utiltesting.MakeLocalQueue("team", "team-a").ClusterQueue("team").Obj(),
		utiltesting.MakeLocalQueue("default", "team-b").ClusterQueue("default").Obj(),
		profile("gpu", &infrav1.SchedulingSpec{Type: infrav1.QueueScheduling,
			Kueue: &infrav1.KueueSchedulingSpec{LocalQueueName: "team", PriorityClass: "high"}}),
		profile("a100-nodes", &infrav1.SchedulingSpec{Type: infrav1.NodeScheduling,
			Node: &infrav1.NodeSchedulingSpec{NodeSelector: map[string]string{"gpu": "a100"}}}),
		notebook("team-a", "fine", q("team"), nil),
		notebook("team-a", "fine-by-profile", nil, gpu),
		notebook("team-a", "on-default", q("default"), nil),
		notebook("team-a", "accelerated", q("team"), map[string]string{webhook.AcceleratorNameAnnotation: "nvidia"}),
		notebook("free", "anything-goes", nil, map[string]string{webhook.AcceleratorNameAnnotation: "nvidia"}),
		pytorchJob("team-a", "unlabelled", nil, nil),
		pytorchJob("team-b", "lost", q("nope"), nil),
		pytorchJob("team-a", "mislabelled", q("default"), gpu),
		pytorchJob("team-a", "gone-profile", q("team"), map[string]string{webhook.HardwareProfileNameAnnotation: "gone"}),
		utiltesting.MakeResourceFlavor("ignored").Obj(),
	}
	s, err := scheme.New()
	if err != nil {
		t.Fatal(err)
	}
	o := &Objects{}
	if err := o.Add(s, objs...); err != nil {
		t.Fatal(err)
	}
	got, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	want := []Finding{
		{Rule: webhook.RuleNotebookQueue, Object: "ClusterQueue default"},
		{Rule: webhook.RuleNodeProfile, Object: "HardwareProfile profiles/a100-nodes"},
		{Rule: RuleProfileLocalQueue, Object: "HardwareProfile profiles/gpu"},
		{Rule: RuleProfilePriorityClass, Object: "HardwareProfile profiles/gpu"},
		{Rule: webhook.RuleAcceleratorProfile, Object: "Notebook team-a/accelerated"},
		{Rule: webhook.RuleNotebookQueue, Object: "Notebook team-a/on-default"},
		{Rule: webhook.RuleHardwareProfile, Object: "PyTorchJob team-a/gone-profile"},
		{Rule: webhook.RuleHardwareProfile, Object: "PyTorchJob team-a/mislabelled"},
		{Rule: webhook.RuleQueueLabel, Object: "PyTorchJob team-a/unlabelled"},
		{Rule: RuleLocalQueue, Object: "PyTorchJob team-b/lost"},
	}
	if diff := cmp.Diff(want, got, cmpopts.IgnoreFields(Finding{}, "Message")); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
	for _, f := range got {
		t.Log(f)
		if !strings.Contains(f.Message, "fix") && !strings.Contains(f.Message, "Fix") && !strings.Contains(f.Message, "to keep your value") {
			t.Errorf("%s does not say what to do", f)
		}
	}
	// Run reads o without changing it.
	for _, w := range o.Workloads {
		if w.Name == "mislabelled" && w.Labels[webhook.QueueLabel] != "default" {
			t.Errorf("Run changed the labels of %s: %v", w.Name, w.Labels)
		}
	}
}

func TestRunWithoutKueueFindsOnlyProfileErrors(t *testing.T) {
	o := &Objects{}
	o.Namespaces = []corev1.Namespace{*ns("team-a", true)}
	o.HardwareProfiles = []infrav1.HardwareProfile{*profile("a100-nodes", &infrav1.SchedulingSpec{Type: infrav1.NodeScheduling,
		Node: &infrav1.NodeSchedulingSpec{}})}
	s, _ := scheme.New()
	if err := o.Add(s,
		notebook("team-a", "nb", nil, nil),
		notebook("team-a", "missing-profile", nil, map[string]string{webhook.HardwareProfileNameAnnotation: "gone"})); err != nil {
		t.Fatal(err)
	}
	got, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	want := []Finding{{Rule: webhook.RuleHardwareProfile, Object: "Notebook team-a/missing-profile"}}
	if diff := cmp.Diff(want, got, cmpopts.IgnoreFields(Finding{}, "Message")); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
}
