//go:build integration

package reconciler_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"

	dscv1 "github.com/kueue-sim/kueue-sim/api/datasciencecluster/v1"
	. "github.com/kueue-sim/kueue-sim/reconciler/reconcilertest"
	. "github.com/kueue-sim/kueue-sim/sim/cluster/clustertest"
)

func namespaceLabels(ctx context.Context, name string) (map[string]string, error) {
	var ns corev1.Namespace
	err := cp.Client.Get(ctx, client.ObjectKey{Name: name}, &ns)
	return ns.Labels, err
}

// hasBothManagedLabels returns nil once the namespace carries both managed
// labels set to "true".
func hasBothManagedLabels(name string) func(ctx context.Context) error {
	return func(ctx context.Context) error {
		l, err := namespaceLabels(ctx, name)
		if err != nil {
			return err
		}
		if l[dscv1.KueueManagedLabel] != "true" || l[dscv1.LegacyKueueManagedLabel] != "true" {
			return fmt.Errorf("namespace %s labels %v, want %s=true and %s=true", name, l, dscv1.KueueManagedLabel, dscv1.LegacyKueueManagedLabel)
		}
		return nil
	}
}

// Behaviour 5: namespaces labelled kueue.openshift.io/managed=true or the
// legacy kueue-managed=true are Kueue-managed, and the platform makes sure
// both labels are on them; other namespaces are left alone.
func TestManagedNamespacesGetBothLabels(t *testing.T) {
	Clean(t, cp.Client)
	current := NewNamespace(t, cp.Client, map[string]string{dscv1.KueueManagedLabel: "true"})
	legacy := NewNamespace(t, cp.Client, map[string]string{dscv1.LegacyKueueManagedLabel: "true"})
	other := NewNamespace(t, cp.Client, map[string]string{"team": "a"})
	dsc := CreateDSC(t, cp.Client, dscv1.Unmanaged)
	WaitCondition(t, cp.Client, dsc.Name, metav1.ConditionTrue, dscv1.ReasonReady)

	Eventually(t, Timeout, hasBothManagedLabels(current))
	Eventually(t, Timeout, hasBothManagedLabels(legacy))

	// A namespace that opts in later, with the legacy label, gets both too.
	late := NewNamespace(t, cp.Client, nil)
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		var ns corev1.Namespace
		if err := cp.Client.Get(context.Background(), client.ObjectKey{Name: late}, &ns); err != nil {
			return err
		}
		ns.Labels[dscv1.LegacyKueueManagedLabel] = "true"
		return cp.Client.Update(context.Background(), &ns)
	})
	if err != nil {
		t.Fatal(err)
	}
	Eventually(t, Timeout, hasBothManagedLabels(late))

	Consistently(t, time.Second, func(ctx context.Context) error {
		l, err := namespaceLabels(ctx, other)
		if err != nil {
			return err
		}
		if _, ok := l[dscv1.KueueManagedLabel]; ok {
			return fmt.Errorf("namespace %s without a managed label got %v", other, l)
		}
		if _, ok := l[dscv1.LegacyKueueManagedLabel]; ok {
			return fmt.Errorf("namespace %s without a managed label got %v", other, l)
		}
		return nil
	})
}
