package features

import (
	"context"
	"strings"
	"testing"

	kftraining "github.com/kubeflow/training-operator/pkg/apis/kubeflow.org/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/e2e-framework/pkg/envconf"
	"sigs.k8s.io/e2e-framework/pkg/features"

	infrav1 "github.com/kueue-sim/kueue-sim/api/infrastructure/v1"
	"github.com/kueue-sim/kueue-sim/webhook"
)

// HardwareProfileQueue checks rule 2: a hardware profile of scheduling type
// Queue sets the workload's queue label.
func HardwareProfileQueue(c Cluster) features.Feature {
	const profile, queue = "gpu-training", "training"
	return features.New("hardware-profile queue injection").
		WithLabel("rule", "hardware-profile").
		Setup(func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			k := Client(t, cfg)
			ns := managedNamespace(ctx, t, k, "e2e-hwp")
			_, cq := platformQueues(ctx, t, k)
			create(ctx, t, k, localQueue(ns, queue, cq))
			create(ctx, t, k, &infrav1.HardwareProfile{
				ObjectMeta: metav1.ObjectMeta{Name: profile, Namespace: ns},
				Spec: infrav1.HardwareProfileSpec{Scheduling: &infrav1.SchedulingSpec{
					Type:  infrav1.QueueScheduling,
					Kueue: &infrav1.KueueSchedulingSpec{LocalQueueName: queue},
				}},
			})
			return with(ctx, "ns", ns)
		}).
		Assess("a PyTorchJob with a Queue profile gets the profile's LocalQueue", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			k, ns := Client(t, cfg), get[string](ctx, t, "ns")
			job := pyTorchJob(c, ns, "profiled", "").Obj()
			metav1.SetMetaDataAnnotation(&job.ObjectMeta, infrav1.HardwareProfileNameAnnotation, profile)
			create(ctx, t, k, job)
			var got kftraining.PyTorchJob
			if err := k.Get(ctx, client.ObjectKeyFromObject(job), &got); err != nil {
				t.Fatal(err)
			}
			if q := got.Labels[webhook.QueueLabel]; q != queue {
				t.Fatalf("queue label %s = %q, want the profile's LocalQueue %q", webhook.QueueLabel, q, queue)
			}
			return ctx
		}).
		Assess("a missing profile is refused", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			ns := get[string](ctx, t, "ns")
			job := pyTorchJob(c, ns, "missing-profile", "").Obj()
			metav1.SetMetaDataAnnotation(&job.ObjectMeta, infrav1.HardwareProfileNameAnnotation, "no-such-profile")
			err := Client(t, cfg).Create(ctx, job)
			if err == nil || !strings.Contains(err.Error(), "no-such-profile") {
				t.Fatalf("want a refusal naming the missing profile, got %v", err)
			}
			return ctx
		}).
		Teardown(func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			remove(ctx, t, Client(t, cfg), nsObj(get[string](ctx, t, "ns")))
			return ctx
		}).
		Feature()
}
