package features

import (
	"context"
	"fmt"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/e2e-framework/pkg/envconf"
	"sigs.k8s.io/e2e-framework/pkg/features"

	dscv1 "github.com/kueue-sim/kueue-sim/api/datasciencecluster/v1"
	"github.com/kueue-sim/kueue-sim/scheme"
)

// Cluster describes the cluster the features run on.
type Cluster struct {
	// GPUModels are the nvidia.com/gpu.product values of the cluster's two
	// kinds of GPU nodes. Each model must have room for 8 GPUs in pods of 4.
	GPUModels [2]string
	// Image is the workloads' container image: anything on KWOK nodes, an
	// image that runs (registry.k8s.io/pause) where a kubelet pulls it.
	Image string
}

// Timeout bounds every wait of the features.
const Timeout = time.Minute

// All returns every feature, in the order they are meant to run.
func All(c Cluster) []features.Feature {
	return []features.Feature{QueueLabel(c), HardwareProfileQueue(c), DefaultQueue(c), NotebookQueues(c), FlavorPlacement(c)}
}

// Client is a client with kueue-sim's scheme on the suite's cluster.
func Client(t *testing.T, cfg *envconf.Config) client.Client {
	t.Helper()
	s, err := scheme.New()
	if err != nil {
		t.Fatal(err)
	}
	c, err := client.New(cfg.Client().RESTConfig(), client.Options{Scheme: s})
	if err != nil {
		t.Fatalf("connecting to the cluster: %v", err)
	}
	return c
}

// managedNamespace creates a Kueue-managed namespace with a random name
// starting with prefix.
func managedNamespace(ctx context.Context, t *testing.T, c client.Client, prefix string) string {
	t.Helper()
	return namespace(ctx, t, c, prefix, map[string]string{dscv1.KueueManagedLabel: "true"})
}

func namespace(ctx context.Context, t *testing.T, c client.Client, prefix string, labels map[string]string) string {
	t.Helper()
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: envconf.RandomName(prefix, 16), Labels: labels}}
	create(ctx, t, c, ns)
	return ns.Name
}

// create creates obj or fails the test.
func create(ctx context.Context, t *testing.T, c client.Client, obj client.Object) {
	t.Helper()
	if err := c.Create(ctx, obj); err != nil {
		t.Fatalf("creating %T %s: %v", obj, obj.GetName(), err)
	}
}

// remove deletes objs in the background, ignoring absent ones.
func remove(ctx context.Context, t *testing.T, c client.Client, objs ...client.Object) {
	t.Helper()
	for _, obj := range objs {
		if err := c.Delete(ctx, obj, client.PropagationPolicy(metav1.DeletePropagationBackground)); client.IgnoreNotFound(err) != nil {
			t.Errorf("deleting %T %s: %v", obj, obj.GetName(), err)
		}
	}
}

// eventually polls cond until it holds or Timeout passes; what describes
// what was awaited, cond's last error says why it did not hold.
func eventually(ctx context.Context, t *testing.T, what string, cond func(context.Context) error) {
	t.Helper()
	var last error
	err := wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, Timeout, true, func(ctx context.Context) (bool, error) {
		last = cond(ctx)
		return last == nil, nil
	})
	if err != nil {
		t.Fatalf("waiting %s for %s: %v", Timeout, what, last)
	}
}

// nsObj names a namespace for deletion.
func nsObj(name string) *corev1.Namespace {
	return &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}
}

type ctxKey string

// with stores v under key in ctx, for the feature's later steps.
func with(ctx context.Context, key string, v any) context.Context {
	return context.WithValue(ctx, ctxKey(key), v)
}

func get[T any](ctx context.Context, t *testing.T, key string) T {
	t.Helper()
	v, ok := ctx.Value(ctxKey(key)).(T)
	if !ok {
		t.Fatalf("the feature's setup stored no %s", key)
	}
	return v
}

func errorf(format string, args ...any) error { return fmt.Errorf(format, args...) }

// platformQueues are the names of the platform's default LocalQueue and
// ClusterQueue, from the active DataScienceCluster.
func platformQueues(ctx context.Context, t *testing.T, k client.Client) (localQueue, clusterQueue string) {
	t.Helper()
	var list dscv1.DataScienceClusterList
	if err := k.List(ctx, &list); err != nil {
		t.Fatalf("reading the DataScienceCluster: %v", err)
	}
	active, _ := dscv1.Active(list.Items)
	if active == nil {
		t.Fatal("the cluster has no DataScienceCluster: the suite's setup makes one")
	}
	return active.Spec.Components.Kueue.LocalQueueName(), active.Spec.Components.Kueue.ClusterQueueName()
}
