package features

import (
	"context"
	"strings"
	"testing"

	"sigs.k8s.io/e2e-framework/pkg/envconf"
	"sigs.k8s.io/e2e-framework/pkg/features"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
)

// NotebookQueues checks rule 5: a Notebook may only go to a LocalQueue
// whose ClusterQueue cannot preempt it.
func NotebookQueues(c Cluster) features.Feature {
	return features.New("notebooks only on non-preemptive queues").
		WithLabel("rule", "notebook-queue").
		Setup(func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			k := Client(t, cfg)
			ns := managedNamespace(ctx, t, k, "e2e-notebook")
			preemptive := clusterQueue(envconf.RandomName("e2e-preemptive", 20), kueue.ClusterQueuePreemption{
				WithinClusterQueue: kueue.PreemptionPolicyLowerPriority,
			})
			calm := clusterQueue(envconf.RandomName("e2e-non-preemptive", 24), kueue.ClusterQueuePreemption{
				WithinClusterQueue: kueue.PreemptionPolicyNever, ReclaimWithinCohort: kueue.PreemptionPolicyNever,
			})
			create(ctx, t, k, preemptive)
			create(ctx, t, k, calm)
			create(ctx, t, k, localQueue(ns, "preemptive", preemptive.Name))
			create(ctx, t, k, localQueue(ns, "non-preemptive", calm.Name))
			ctx = with(ctx, "cqs", []string{preemptive.Name, calm.Name})
			return with(ctx, "ns", ns)
		}).
		Assess("a Notebook on a preemptive ClusterQueue is refused", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			ns := get[string](ctx, t, "ns")
			err := Client(t, cfg).Create(ctx, notebook(c, ns, "risky", "preemptive"))
			if err == nil {
				t.Fatal("the Notebook on a preemptive ClusterQueue was created")
			}
			if !strings.Contains(err.Error(), "preemptive") {
				t.Fatalf("refused, but not for preemption: %v", err)
			}
			return ctx
		}).
		Assess("a Notebook on a non-preemptive ClusterQueue is created", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			create(ctx, t, Client(t, cfg), notebook(c, get[string](ctx, t, "ns"), "safe", "non-preemptive"))
			return ctx
		}).
		Teardown(func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			k := Client(t, cfg)
			remove(ctx, t, k, nsObj(get[string](ctx, t, "ns")))
			for _, name := range get[[]string](ctx, t, "cqs") {
				remove(ctx, t, k, &kueue.ClusterQueue{ObjectMeta: objMeta(name)})
			}
			return ctx
		}).
		Feature()
}
