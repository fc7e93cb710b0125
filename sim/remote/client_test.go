package remote

import (
	"context"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	"github.com/kueue-sim/kueue-sim/scheme"
)

func TestLabellingClientLabelsAndRefusesForeignClusterObjects(t *testing.T) {
	ctx := context.Background()
	s, err := scheme.New()
	if err != nil {
		t.Fatal(err)
	}
	foreign := &kueue.ClusterQueue{ObjectMeta: metav1.ObjectMeta{Name: "theirs"}}
	base := fake.NewClientBuilder().WithScheme(s).WithObjects(foreign).Build()
	c := labellingClient(base, "run1")

	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "team"}}
	if err := c.Create(ctx, ns); err != nil {
		t.Fatal(err)
	}
	var got corev1.Namespace
	if err := base.Get(ctx, client.ObjectKey{Name: "team"}, &got); err != nil || got.Labels[RunLabel] != "run1" {
		t.Errorf("created namespace labels %v (err %v), want %s=run1", got.Labels, err, RunLabel)
	}

	err = c.Create(ctx, &kueue.ClusterQueue{ObjectMeta: metav1.ObjectMeta{Name: "theirs"}})
	if err == nil || apierrors.IsAlreadyExists(err) || !strings.Contains(err.Error(), "not this run's") {
		t.Errorf("creating over a foreign ClusterQueue: err = %v, want a refusal naming it", err)
	}

	if err := c.Create(ctx, &kueue.ClusterQueue{ObjectMeta: metav1.ObjectMeta{Name: "ours"}}); err != nil {
		t.Fatal(err)
	}
	err = c.Create(ctx, &kueue.ClusterQueue{ObjectMeta: metav1.ObjectMeta{Name: "ours"}})
	if !apierrors.IsAlreadyExists(err) {
		t.Errorf("creating the run's own ClusterQueue again: err = %v, want AlreadyExists", err)
	}
}
