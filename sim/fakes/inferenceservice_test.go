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

// inferenceService is a two-replica sklearn InferenceService on LocalQueue
// lq whose model asks for gpus GPUs.
func inferenceService(ns, name, gpus string) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "serving.kserve.io/v1beta1",
		"kind":       "InferenceService",
		"metadata": map[string]any{
			"name": name, "namespace": ns,
			"labels":      map[string]any{queueLabel: "lq"},
			"annotations": map[string]any{"serving.kserve.io/deploymentMode": "RawDeployment"},
		},
		"spec": map[string]any{"predictor": map[string]any{
			"minReplicas": int64(2),
			"model": map[string]any{
				"modelFormat": map[string]any{"name": "sklearn"},
				"storageUri":  "gs://kfserving-examples/models/sklearn/1.0/model",
				"resources": map[string]any{
					"requests": map[string]any{"cpu": "1"},
					"limits":   map[string]any{string(gpu): gpus},
				},
			},
		}},
	}}
}

// isvcCondition returns the status of the InferenceService's condition t.
func isvcCondition(isvc *unstructured.Unstructured, t string) string {
	conds, _, _ := unstructured.NestedSlice(isvc.Object, "status", "conditions")
	for _, c := range conds {
		if c := c.(map[string]any); c["type"] == t {
			s, _ := c["status"].(string)
			return s
		}
	}
	return ""
}

func TestInferenceServiceRunsAsAQueuedDeployment(t *testing.T) {
	ns := gpuQueue(t, L4, "4")
	isvc := inferenceService(ns, "iris", "1")
	Create(t, cp.Client, isvc)

	var dep appsv1.Deployment
	Eventually(t, 30*time.Second, func(ctx context.Context) error {
		return cp.Client.Get(ctx, client.ObjectKey{Namespace: ns, Name: "iris-predictor"}, &dep)
	})
	if dep.Labels[queueLabel] != "lq" || *dep.Spec.Replicas != 2 {
		t.Errorf("Deployment labels %v and %d replicas, want the queue label and 2", dep.Labels, *dep.Spec.Replicas)
	}

	// Kueue's deployment integration queues each pod as its own Workload.
	Eventually(t, 30*time.Second, func(ctx context.Context) error {
		pods, err := runningOn(ctx, isvc, 2, L4)
		if err != nil {
			return err
		}
		for _, p := range pods {
			if err := workloadCondition(ctx, ns, p.Name, kueue.WorkloadAdmitted); err != nil {
				return err
			}
		}
		if err := get(ctx, isvc); err != nil {
			return err
		}
		for _, c := range []string{"PredictorReady", "IngressReady", "Ready"} {
			if s := isvcCondition(isvc, c); s != "True" {
				return fmt.Errorf("InferenceService condition %s is %q, want True", c, s)
			}
		}
		if url, _, _ := unstructured.NestedString(isvc.Object, "status", "url"); url != "http://iris-predictor."+ns+".svc.cluster.local" {
			return fmt.Errorf("InferenceService url %q", url)
		}
		return nil
	})

	// An InferenceService serves until it is deleted; its pods' Workloads
	// finish or go with them.
	pods, err := running(context.Background(), isvc, 2)
	if err != nil {
		t.Fatal(err)
	}
	if err := cp.Client.Delete(context.Background(), isvc); err != nil {
		t.Fatal(err)
	}
	Eventually(t, 30*time.Second, func(ctx context.Context) error {
		for _, p := range pods {
			if err := noWorkloads(ctx, ns, p.Name); err != nil {
				return err
			}
		}
		_, err := running(ctx, isvc, 0)
		return err
	})
}
