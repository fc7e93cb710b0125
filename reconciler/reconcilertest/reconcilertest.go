// Package reconcilertest holds what the OpenShift AI reconciler's
// integration tests share: starting each test from a clean platform (no
// DataScienceCluster, no Kueue CR, no defaults), making namespaces that go
// away with the test, and waiting for the KueueReady condition and events.
package reconcilertest

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	dscv1 "github.com/kueue-sim/kueue-sim/api/datasciencecluster/v1"
	kueueoperatorv1 "github.com/kueue-sim/kueue-sim/api/kueueoperator/v1"
	odhv1alpha "github.com/kueue-sim/kueue-sim/api/opendatahub/v1alpha"
	"github.com/kueue-sim/kueue-sim/reconciler"
	"github.com/kueue-sim/kueue-sim/sim/cluster/clustertest"
)

// Timeout bounds each wait.
const Timeout = 30 * time.Second

// Platform starts the test from a clean platform (Clean) and creates a
// DataScienceCluster with the given Kueue state (CreateDSC).
func Platform(t *testing.T, c client.Client, state dscv1.ManagementState) *dscv1.DataScienceCluster {
	t.Helper()
	Clean(t, c)
	return CreateDSC(t, c, state)
}

// Clean resets the platform now and when the test ends.
func Clean(t *testing.T, c client.Client) {
	t.Helper()
	Reset(t, c)
	t.Cleanup(func() { Reset(t, c) })
}

// CreateDSC creates a DataScienceCluster named after the test with the given
// Kueue state, changed by each mod.
func CreateDSC(t *testing.T, c client.Client, state dscv1.ManagementState, mods ...func(*dscv1.KueueComponent)) *dscv1.DataScienceCluster {
	t.Helper()
	dsc := &dscv1.DataScienceCluster{
		ObjectMeta: metav1.ObjectMeta{Name: Name(t)},
		Spec: dscv1.DataScienceClusterSpec{Components: dscv1.Components{
			Kueue: dscv1.KueueComponent{ManagementState: state},
		}},
	}
	for _, m := range mods {
		m(&dsc.Spec.Components.Kueue)
	}
	clustertest.Create(t, c, dsc)
	return dsc
}

// Name is a DNS-1123 name made from the test's name.
func Name(t testing.TB) string {
	n := strings.ToLower(t.Name())
	n = strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			return r
		}
		return '-'
	}, n)
	if len(n) > 50 {
		n = n[len(n)-50:]
	}
	return strings.Trim(n, "-")
}

// SetState sets the Kueue management state of the named DataScienceCluster.
func SetState(t testing.TB, c client.Client, name string, state dscv1.ManagementState) {
	t.Helper()
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		var dsc dscv1.DataScienceCluster
		if err := c.Get(context.Background(), types.NamespacedName{Name: name}, &dsc); err != nil {
			return err
		}
		dsc.Spec.Components.Kueue.ManagementState = state
		return c.Update(context.Background(), &dsc)
	})
	if err != nil {
		t.Fatalf("setting DataScienceCluster %s to %s: %v", name, state, err)
	}
}

// Reset deletes every DataScienceCluster and OdhDashboardConfig, the Kueue
// CR and every default the platform created, and waits until they are gone.
func Reset(t testing.TB, c client.Client) {
	t.Helper()
	ctx := context.Background()
	del := func(obj client.Object, opts ...client.DeleteAllOfOption) {
		if err := c.DeleteAllOf(ctx, obj, opts...); err != nil && !apierrors.IsNotFound(err) && !apimeta.IsNoMatchError(err) {
			t.Fatalf("resetting the platform: deleting %T: %v", obj, err)
		}
	}
	// The DataScienceClusters first: with none, the platform re-creates
	// nothing.
	del(&dscv1.DataScienceCluster{})
	clustertest.Eventually(t, Timeout, func(ctx context.Context) error {
		return empty(ctx, c, &dscv1.DataScienceClusterList{})
	})
	del(&kueueoperatorv1.Kueue{})
	var nss corev1.NamespaceList
	if err := c.List(ctx, &nss); err != nil {
		t.Fatal(err)
	}
	for _, ns := range nss.Items {
		del(&odhv1alpha.OdhDashboardConfig{}, client.InNamespace(ns.Name))
		del(&kueue.LocalQueue{}, client.InNamespace(ns.Name), client.MatchingLabels{reconciler.PartOfLabel: "kueue"})
	}
	del(&kueue.ClusterQueue{}, client.MatchingLabels{reconciler.PartOfLabel: "kueue"})
	del(&kueue.ResourceFlavor{}, client.MatchingLabels{reconciler.PartOfLabel: "kueue"})
	clustertest.Eventually(t, Timeout, func(ctx context.Context) error {
		for _, l := range []client.ObjectList{&kueueoperatorv1.KueueList{}, &odhv1alpha.OdhDashboardConfigList{}} {
			if err := empty(ctx, c, l); err != nil && !apimeta.IsNoMatchError(err) {
				return err
			}
		}
		for _, l := range []client.ObjectList{&kueue.LocalQueueList{}, &kueue.ClusterQueueList{}, &kueue.ResourceFlavorList{}} {
			if err := empty(ctx, c, l, client.MatchingLabels{reconciler.PartOfLabel: "kueue"}); err != nil {
				return err
			}
		}
		return nil
	})
}

func empty(ctx context.Context, c client.Client, l client.ObjectList, opts ...client.ListOption) error {
	if err := c.List(ctx, l, opts...); err != nil {
		return err
	}
	if n := apimeta.LenList(l); n > 0 {
		return fmt.Errorf("%d %T left", n, l)
	}
	return nil
}

// NewNamespace creates a namespace with labels that is deleted when the test
// ends.
func NewNamespace(t testing.TB, c client.Client, labels map[string]string) string {
	t.Helper()
	name := clustertest.Namespace(t, c, labels)
	t.Cleanup(func() {
		ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}
		if err := c.Delete(context.Background(), ns); err != nil && !apierrors.IsNotFound(err) {
			t.Errorf("deleting namespace %s: %v", name, err)
		}
	})
	return name
}

// KueueReady returns the named DataScienceCluster's KueueReady condition.
func KueueReady(ctx context.Context, c client.Client, name string) (*dscv1.DataScienceCluster, *metav1.Condition, error) {
	var dsc dscv1.DataScienceCluster
	if err := c.Get(ctx, types.NamespacedName{Name: name}, &dsc); err != nil {
		return nil, nil, err
	}
	cond := apimeta.FindStatusCondition(dsc.Status.Conditions, dscv1.ConditionKueueReady)
	if cond == nil {
		return &dsc, nil, fmt.Errorf("DataScienceCluster %s has no %s condition yet", name, dscv1.ConditionKueueReady)
	}
	return &dsc, cond, nil
}

// WaitCondition waits until the named DataScienceCluster's KueueReady
// condition has status and reason, and returns it.
func WaitCondition(t testing.TB, c client.Client, name string, status metav1.ConditionStatus, reason string) metav1.Condition {
	t.Helper()
	var got metav1.Condition
	clustertest.Eventually(t, Timeout, func(ctx context.Context) error {
		_, cond, err := KueueReady(ctx, c, name)
		if err != nil {
			return err
		}
		if cond.Status != status || cond.Reason != reason {
			return fmt.Errorf("KueueReady is %s/%s (%q), want %s/%s", cond.Status, cond.Reason, cond.Message, status, reason)
		}
		got = *cond
		return nil
	})
	return got
}

// WaitEvent waits for an event of type and reason about obj (matched by
// UID) and returns it.
func WaitEvent(t testing.TB, c client.Client, obj client.Object, eventType, reason string) corev1.Event {
	t.Helper()
	var got corev1.Event
	clustertest.Eventually(t, Timeout, func(ctx context.Context) error {
		var evs corev1.EventList
		if err := c.List(ctx, &evs); err != nil {
			return err
		}
		var seen []string
		for _, e := range evs.Items {
			if e.InvolvedObject.UID != obj.GetUID() {
				continue
			}
			if e.Type == eventType && e.Reason == reason {
				got = e
				return nil
			}
			seen = append(seen, e.Type+"/"+e.Reason)
		}
		return fmt.Errorf("no %s event %s about %s; saw %v", eventType, reason, obj.GetName(), seen)
	})
	return got
}

// Absent returns nil when obj does not exist.
func Absent(ctx context.Context, c client.Client, obj client.Object) error {
	err := c.Get(ctx, client.ObjectKeyFromObject(obj), obj)
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	return fmt.Errorf("%T %s exists", obj, client.ObjectKeyFromObject(obj))
}
