//go:build integration

package fakes_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	. "github.com/kueue-sim/kueue-sim/sim/cluster/clustertest"
)

const queueLabel = "kueue.x-k8s.io/queue-name"

// notebook is a Notebook on LocalQueue lq whose container, named after it,
// asks for gpus GPUs.
func notebook(ns, name, gpus string) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "kubeflow.org/v1",
		"kind":       "Notebook",
		"metadata": map[string]any{
			"name": name, "namespace": ns,
			"labels": map[string]any{queueLabel: "lq"},
		},
		"spec": map[string]any{"template": map[string]any{"spec": map[string]any{
			"containers": []any{map[string]any{
				"name":  name,
				"image": "quay.io/modh/odh-minimal-notebook-container",
				"resources": map[string]any{
					"requests": map[string]any{"cpu": "1", string(gpu): gpus},
					"limits":   map[string]any{string(gpu): gpus},
				},
			}},
		}}},
	}}
}

func TestNotebookRunsAsAQueuedStatefulSet(t *testing.T) {
	ns := gpuQueue(t, A100, "4")
	nb := notebook(ns, "wb", "2")
	Create(t, cp.Client, nb)

	var sts appsv1.StatefulSet
	Eventually(t, 30*time.Second, func(ctx context.Context) error {
		if err := cp.Client.Get(ctx, client.ObjectKey{Namespace: ns, Name: "wb"}, &sts); err != nil {
			return err
		}
		return workloadCondition(ctx, ns, "wb", kueue.WorkloadAdmitted)
	})
	if sts.Labels[queueLabel] != "lq" {
		t.Errorf("StatefulSet labels %v, want the Notebook's queue label", sts.Labels)
	}
	if ref := sts.OwnerReferences; len(ref) != 1 || ref[0].Kind != "Notebook" || ref[0].Name != "wb" {
		t.Errorf("StatefulSet owners %+v, want the Notebook", ref)
	}

	Eventually(t, 30*time.Second, func(ctx context.Context) error {
		pods, err := runningOn(ctx, nb, 1, A100)
		if err != nil {
			return err
		}
		if pods[0].Name != "wb-0" || pods[0].Labels["notebook-name"] != "wb" {
			return fmt.Errorf("pod %s with labels %v, want wb-0 labelled notebook-name=wb", pods[0].Name, pods[0].Labels)
		}
		if err := get(ctx, nb); err != nil {
			return err
		}
		if n, _, _ := unstructured.NestedInt64(nb.Object, "status", "readyReplicas"); n != 1 {
			return fmt.Errorf("Notebook readyReplicas %d, want 1", n)
		}
		if _, ok, _ := unstructured.NestedMap(nb.Object, "status", "containerState", "running"); !ok {
			return fmt.Errorf("Notebook containerState %v, want running", nb.Object["status"])
		}
		conds, _, _ := unstructured.NestedSlice(nb.Object, "status", "conditions")
		for _, c := range conds {
			if c := c.(map[string]any); c["type"] == "Ready" && c["status"] == "True" {
				return nil
			}
		}
		return fmt.Errorf("Notebook conditions %v, want Ready True", conds)
	})

	// A Notebook runs until it is deleted; its Workload goes with it.
	if err := cp.Client.Delete(context.Background(), nb); err != nil {
		t.Fatal(err)
	}
	Eventually(t, 30*time.Second, func(ctx context.Context) error {
		if err := noWorkloads(ctx, ns, "wb"); err != nil {
			return err
		}
		_, err := running(ctx, nb, 0)
		return err
	})
}
