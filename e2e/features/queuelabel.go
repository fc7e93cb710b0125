package features

import (
	"context"
	"strings"
	"testing"

	"sigs.k8s.io/e2e-framework/pkg/envconf"
	"sigs.k8s.io/e2e-framework/pkg/features"

	"github.com/kueue-sim/kueue-sim/webhook"
)

// QueueLabel checks rule 1 of the platform's webhook: in a Kueue-managed
// namespace, a workload must name a LocalQueue.
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
		Assess("with a queue label it is created and Kueue holds it", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			ns := get[string](ctx, t, "managed")
			create(ctx, t, Client(t, cfg), pyTorchJob(c, ns, "labelled", "default").Obj())
			return ctx
		}).
		Assess("outside managed namespaces no label is needed", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			ns := get[string](ctx, t, "unmanaged")
			create(ctx, t, Client(t, cfg), pyTorchJob(c, ns, "no-label", "").Obj())
			return ctx
		}).
		Teardown(func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			remove(ctx, t, Client(t, cfg), nsObj(get[string](ctx, t, "managed")), nsObj(get[string](ctx, t, "unmanaged")))
			return ctx
		}).
		Feature()
}
