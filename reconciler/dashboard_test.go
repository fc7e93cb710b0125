//go:build integration

package reconciler_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	dscv1 "github.com/kueue-sim/kueue-sim/api/datasciencecluster/v1"
	odhv1alpha "github.com/kueue-sim/kueue-sim/api/opendatahub/v1alpha"
	. "github.com/kueue-sim/kueue-sim/reconciler/reconcilertest"
	. "github.com/kueue-sim/kueue-sim/sim/cluster/clustertest"
)

// dashboardConfig creates the dashboard's OdhDashboardConfig in its own
// namespace.
func dashboardConfig(t *testing.T, disableKueue bool) {
	t.Helper()
	ns := NewNamespace(t, cp.Client, nil)
	Create(t, cp.Client, &odhv1alpha.OdhDashboardConfig{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: odhv1alpha.DefaultName},
		Spec:       odhv1alpha.OdhDashboardConfigSpec{DashboardConfig: odhv1alpha.DashboardConfig{DisableKueue: disableKueue}},
	})
}

// notKueueManaged checks that a namespace carries no managed label set to
// "true".
func notKueueManaged(name string) func(ctx context.Context) error {
	return func(ctx context.Context) error {
		l, err := namespaceLabels(ctx, name)
		if err != nil {
			return err
		}
		if dscv1.IsKueueManaged(l) {
			return fmt.Errorf("namespace %s became Kueue-managed: %v", name, l)
		}
		return nil
	}
}

var dashboardProject = map[string]string{odhv1alpha.DashboardProjectLabel: "true"}

// Behaviour 7: with Kueue enabled and disableKueue=false, a namespace created
// as a dashboard project becomes Kueue-managed; namespaces created any
// other way, and projects created while the dashboard hides Kueue, do not.
func TestDashboardProjectsBecomeKueueManaged(t *testing.T) {
	t.Run("Kueue enabled and disableKueue=false", func(t *testing.T) {
		Clean(t, cp.Client)
		dashboardConfig(t, false)
		dsc := CreateDSC(t, cp.Client, dscv1.Unmanaged)
		WaitCondition(t, cp.Client, dsc.Name, metav1.ConditionTrue, dscv1.ReasonReady)

		project := NewNamespace(t, cp.Client, dashboardProject)
		plain := NewNamespace(t, cp.Client, nil)
		Eventually(t, Timeout, hasBothManagedLabels(project))
		// Being Kueue-managed, it gets the default LocalQueue.
		get(t, localQueue(project, dscv1.DefaultQueueName))
		Consistently(t, time.Second, notKueueManaged(plain))
	})

	t.Run("no OdhDashboardConfig, Kueue Managed: the dashboard reads the spec only", func(t *testing.T) {
		Clean(t, cp.Client)
		dsc := CreateDSC(t, cp.Client, dscv1.Managed)
		WaitCondition(t, cp.Client, dsc.Name, metav1.ConditionFalse, dscv1.ReasonManagedConflictsWithOperator)
		project := NewNamespace(t, cp.Client, dashboardProject)
		Eventually(t, Timeout, func(ctx context.Context) error {
			l, err := namespaceLabels(ctx, project)
			if err != nil {
				return err
			}
			if l[dscv1.KueueManagedLabel] != "true" {
				return fmt.Errorf("project %s labels %v, want %s=true", project, l, dscv1.KueueManagedLabel)
			}
			return nil
		})
	})

	t.Run("disableKueue=true", func(t *testing.T) {
		Clean(t, cp.Client)
		dashboardConfig(t, true)
		dsc := CreateDSC(t, cp.Client, dscv1.Unmanaged)
		WaitCondition(t, cp.Client, dsc.Name, metav1.ConditionTrue, dscv1.ReasonReady)
		project := NewNamespace(t, cp.Client, dashboardProject)
		Consistently(t, 2*time.Second, notKueueManaged(project))
	})

	t.Run("Kueue Removed", func(t *testing.T) {
		Clean(t, cp.Client)
		dashboardConfig(t, false)
		dsc := CreateDSC(t, cp.Client, dscv1.Removed)
		WaitCondition(t, cp.Client, dsc.Name, metav1.ConditionFalse, dscv1.ReasonRemoved)
		project := NewNamespace(t, cp.Client, dashboardProject)
		Consistently(t, 2*time.Second, notKueueManaged(project))
	})

	t.Run("project that opts out", func(t *testing.T) {
		Clean(t, cp.Client)
		dsc := CreateDSC(t, cp.Client, dscv1.Unmanaged)
		WaitCondition(t, cp.Client, dsc.Name, metav1.ConditionTrue, dscv1.ReasonReady)
		project := NewNamespace(t, cp.Client, map[string]string{
			odhv1alpha.DashboardProjectLabel: "true", dscv1.KueueManagedLabel: "false",
		})
		Consistently(t, 2*time.Second, notKueueManaged(project))
	})
}
