//go:build integration

package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"sigs.k8s.io/controller-runtime/pkg/client"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	"github.com/kueue-sim/kueue-sim/importer/kube"
	"github.com/kueue-sim/kueue-sim/sim/cluster"
)

// TestImportClusterFromSimUp imports the embedded control plane of `sim up`
// (a real kube-apiserver with Kueue) after a ClusterQueue admitted two raw
// Workloads and left a third pending: the written scenario replays the
// three on the cluster's node pools, and the manifests hold the queues
// cleaned of what the cluster added. It starts a control plane: run it with
// the integration tests (make test), not alone on a busy machine.
func TestImportClusterFromSimUp(t *testing.T) {
	bin := buildSim(t)
	runRoot := t.TempDir()
	up := startUp(t, bin, runRoot)
	defer func() {
		_ = up.cmd.Process.Signal(syscall.SIGINT)
		if err := up.wait(t); err != nil {
			t.Errorf("sim up exited with %v:\n%s", err, up.output.String())
		}
	}()
	kubeconfig := filepath.Join(runRoot, "kubeconfig")
	cfg, err := cluster.LoadKubeconfig(kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	s, err := kube.Scheme()
	if err != nil {
		t.Fatal(err)
	}
	c, err := client.New(cfg, client.Options{Scheme: s})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	cpu := func(q string) corev1.ResourceList {
		return corev1.ResourceList{corev1.ResourceCPU: resource.MustParse(q)}
	}
	objs := []client.Object{
		&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "research", Labels: map[string]string{kube.ManagedLabel: "true"}}},
		&kueue.ResourceFlavor{ObjectMeta: metav1.ObjectMeta{Name: "default-flavor"}},
		&kueue.ClusterQueue{ObjectMeta: metav1.ObjectMeta{Name: "research-cq"}, Spec: kueue.ClusterQueueSpec{
			NamespaceSelector: &metav1.LabelSelector{},
			ResourceGroups: []kueue.ResourceGroup{{
				CoveredResources: []corev1.ResourceName{corev1.ResourceCPU},
				Flavors: []kueue.FlavorQuotas{{Name: "default-flavor", Resources: []kueue.ResourceQuota{
					{Name: corev1.ResourceCPU, NominalQuota: resource.MustParse("8")},
				}}},
			}},
		}},
		&kueue.LocalQueue{ObjectMeta: metav1.ObjectMeta{Name: "train", Namespace: "research"},
			Spec: kueue.LocalQueueSpec{ClusterQueue: "research-cq"}},
	}
	for i, q := range []string{"4", "4", "4"} {
		objs = append(objs, &kueue.Workload{
			ObjectMeta: metav1.ObjectMeta{Name: "wl-" + string(rune('a'+i)), Namespace: "research"},
			Spec: kueue.WorkloadSpec{QueueName: "train", PodSets: []kueue.PodSet{{
				Name: kueue.DefaultPodSetName, Count: 1,
				Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{
					RestartPolicy: corev1.RestartPolicyNever,
					Containers:    []corev1.Container{{Name: "c", Image: "registry.invalid/x", Resources: corev1.ResourceRequirements{Requests: cpu(q)}}},
				}},
			}}},
		})
	}
	for _, o := range objs {
		if err := c.Create(ctx, o); err != nil {
			t.Fatalf("creating %s: %v", o.GetName(), err)
		}
	}
	// Kueue admits two (8 CPUs of quota) and leaves the third pending.
	err = wait.PollUntilContextCancel(ctx, 200*time.Millisecond, true, func(ctx context.Context) (bool, error) {
		var wls kueue.WorkloadList
		if err := c.List(ctx, &wls, client.InNamespace("research")); err != nil {
			return false, nil
		}
		admitted := 0
		for _, wl := range wls.Items {
			if apimeta.IsStatusConditionTrue(wl.Status.Conditions, kueue.WorkloadAdmitted) {
				admitted++
			}
		}
		return admitted == 2, nil
	})
	if err != nil {
		t.Fatalf("Kueue did not admit two Workloads: %v", err)
	}

	out := filepath.Join(t.TempDir(), "imported")
	code, msg := simCmd(t, "import", "cluster", "--kubeconfig", kubeconfig, "--since", "1h", "-o", out)
	if code != 0 {
		t.Fatalf("import cluster: exit %d\n%s", code, msg)
	}
	if strings.Contains(msg, "forbidden") || strings.Contains(msg, "incomplete") {
		t.Errorf("an admin import is incomplete:\n%s", msg)
	}
	read := func(name string) string {
		data, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return string(data)
	}
	scenario := read("scenario.yaml")
	for _, want := range []string{
		"# Imported by sim import cluster from context",
		"manifests:\n  - manifests",
		"- name: research\n  namespace: research",
		"name: research-train-wl-running-1", // the two admitted, still running
		"name: research-train-wl-1",         // the pending one
		"kind: Workload",
		"queue: train",
		"nvidia.com/gpu.product: NVIDIA-A100-SXM4-80GB", // sim up's default A100 pool
	} {
		if !strings.Contains(scenario, want) {
			t.Errorf("scenario.yaml lacks %q:\n%s", want, scenario)
		}
	}
	if strings.Contains(scenario, "Incomplete:") || strings.Contains(scenario, "Inferred:") {
		t.Errorf("scenario.yaml is marked incomplete or inferred:\n%s", scenario)
	}
	cqs := read("manifests/clusterqueues.yaml")
	for _, want := range []string{"apiVersion: kueue.x-k8s.io/v1beta2", "kind: ClusterQueue", "name: research-cq", "nominalQuota: \"8\""} {
		if !strings.Contains(cqs, want) {
			t.Errorf("clusterqueues.yaml lacks %q:\n%s", want, cqs)
		}
	}
	for _, banned := range []string{"status:", "uid:", "resourceVersion:", "managedFields:", "creationTimestamp:", "finalizers:"} {
		if strings.Contains(cqs, banned) {
			t.Errorf("clusterqueues.yaml keeps %s:\n%s", banned, cqs)
		}
	}
	if lqs := read("manifests/localqueues.yaml"); !strings.Contains(lqs, "namespace: research") || !strings.Contains(lqs, "clusterQueue: research-cq") {
		t.Errorf("localqueues.yaml:\n%s", lqs)
	}
	if ns := read("manifests/namespaces.yaml"); !strings.Contains(ns, "kueue.openshift.io/managed: \"true\"") {
		t.Errorf("namespaces.yaml:\n%s", ns)
	}
}
