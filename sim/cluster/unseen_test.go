//go:build integration

package cluster_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Unseen compares etcd's last write to a resource with what the caller's
// informers saw: a write they have not seen is named until they have.
// (PodTemplates: nothing else in the control plane writes them.)
func TestUnseenNamesWritesTheInformersHaveNotDelivered(t *testing.T) {
	ctx := context.Background()
	// The first call starts the watch of etcd: writes before it are not
	// followed (a run makes that call before it writes anything).
	if _, err := cp.Unseen(ctx, func(string) (int64, bool) { return 0, false }); err != nil {
		t.Fatal(err)
	}
	pt := &corev1.PodTemplate{ObjectMeta: metav1.ObjectMeta{Namespace: "default", GenerateName: "unseen-"},
		Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "registry.invalid/c"}}}}}
	if err := cp.Client.Create(ctx, pt); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cp.Client.Delete(context.Background(), pt) })
	rv, err := strconv.ParseInt(pt.ResourceVersion, 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	seenUpTo := func(v int64) func(string) (int64, bool) {
		return func(res string) (int64, bool) { return v, res == "podtemplates" }
	}
	// etcd's watch delivers the write within milliseconds; until then
	// Unseen names the watch itself.
	deadline := time.Now().Add(10 * time.Second)
	for {
		got, err := cp.Unseen(ctx, seenUpTo(rv-1))
		if err != nil {
			t.Fatal(err)
		}
		if got == "podtemplates" {
			break
		}
		if got != "etcd's watch" || time.Now().After(deadline) {
			t.Fatalf("Unseen with the PodTemplate's write not seen = %q, want podtemplates", got)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if got, err := cp.Unseen(ctx, seenUpTo(rv)); err != nil || got != "" {
		t.Errorf("Unseen with every write seen = %q, %v; want nothing", got, err)
	}
}
