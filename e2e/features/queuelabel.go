package features

import (
	"context"
	"strings"
	"testing"

	kftraining "github.com/kubeflow/training-operator/pkg/apis/kubeflow.org/v1"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/e2e-framework/pkg/envconf"
	"sigs.k8s.io/e2e-framework/pkg/features"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	"github.com/kueue-sim/kueue-sim/webhook"
)

// QueueLabel checks rule 1 of the platform's webhook: in a Kueue-managed
// namespace, a workload must name a LocalQueue. It also shows how Kueue's
// LocalQueueDefaulting meets it: where a LocalQueue named "default" exists,
// Kueue's mutating webhook names it first, so the job is admitted.
func QueueLabel(c Cluster) features.Feature {
	return features.New("queue-label enforcement").
		WithLabel("rule", "queue-label").
		Setup(func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			k := Client(t, cfg)
			ctx = with(ctx, "managed", managedNamespace(ctx, t, k, "e2e-qlabel"))
			return with(ctx, "unmanaged", namespace(ctx, t, k, "e2e-qlabel-off", nil))
		}).
		Assess("a PyTorchJob without a queue label is refused in a managed namespace", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			ns := get[string](ctx, t, "managed")
			err := Client(t, cfg).Create(ctx, pyTorchJob(c, ns, "no-label", "").Obj())
			if err == nil {
				t.Fatal("the PyTorchJob without a queue label was created")
			}
			if !strings.Contains(err.Error(), webhook.QueueLabel) {
				t.Fatalf("refused, but the refusal does not name the label %s: %v", webhook.QueueLabel, err)
			}
			return ctx
		}).
		Assess("with the platform's default LocalQueue as its label it is created", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			k, ns := Client(t, cfg), get[string](ctx, t, "managed")
			lq, _ := platformQueues(ctx, t, k)
			create(ctx, t, k, pyTorchJob(c, ns, "labelled", lq).Obj())
			return ctx
		}).
		Assess("outside managed namespaces no label is needed", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			ns := get[string](ctx, t, "unmanaged")
			create(ctx, t, Client(t, cfg), pyTorchJob(c, ns, "no-label", "").Obj())
			return ctx
		}).
		Assess("with a LocalQueue named default, Kueue labels the PyTorchJob before the rule reads it", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			k, ns := Client(t, cfg), get[string](ctx, t, "managed")
			_, cq := platformQueues(ctx, t, k)
			lq := localQueue(ns, "default", cq)
			create(ctx, t, k, lq)
			// Kueue's webhook asks its queue manager, which learns of the
			// LocalQueue from an informer, not the API: wait until Kueue's
			// reconciler has written the queue's Active condition, which it
			// does only after the queue manager holds the queue.
			eventually(ctx, t, "Kueue to hold LocalQueue "+ns+"/default", func(ctx context.Context) error {
				var got kueue.LocalQueue
				if err := k.Get(ctx, client.ObjectKeyFromObject(lq), &got); err != nil {
					return err
				}
				if apimeta.FindStatusCondition(got.Status.Conditions, kueue.LocalQueueActive) == nil {
					return errorf("no %s condition yet", kueue.LocalQueueActive)
				}
				return nil
			})
			job := pyTorchJob(c, ns, "kueue-defaulted", "").Obj()
			create(ctx, t, k, job)
			var got kftraining.PyTorchJob
			if err := k.Get(ctx, client.ObjectKeyFromObject(job), &got); err != nil {
				t.Fatal(err)
			}
			if q := got.Labels[webhook.QueueLabel]; q != "default" {
				t.Fatalf("queue label %s = %q, want Kueue's default LocalQueue %q", webhook.QueueLabel, q, "default")
			}
			return ctx
		}).
		Teardown(func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			remove(ctx, t, Client(t, cfg), nsObj(get[string](ctx, t, "managed")), nsObj(get[string](ctx, t, "unmanaged")))
			return ctx
		}).
		Feature()
}
