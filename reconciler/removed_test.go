//go:build integration

package reconciler_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	dscv1 "github.com/kueue-sim/kueue-sim/api/datasciencecluster/v1"
	kueueoperatorv1 "github.com/kueue-sim/kueue-sim/api/kueueoperator/v1"
	odhv1alpha "github.com/kueue-sim/kueue-sim/api/opendatahub/v1alpha"
	. "github.com/kueue-sim/kueue-sim/reconciler/reconcilertest"
	. "github.com/kueue-sim/kueue-sim/sim/cluster/clustertest"
)

// Behaviour 4: Removed, or an empty state, turns queue enforcement off: the
// platform reports Removed, creates nothing and makes no dashboard project
// Kueue-managed.
func TestRemovedOrEmptyTurnsQueueEnforcementOff(t *testing.T) {
	for _, state := range []dscv1.ManagementState{"", dscv1.Removed} {
		t.Run(fmt.Sprintf("state %q", state), func(t *testing.T) {
			Clean(t, cp.Client)
			managed := map[string]string{dscv1.KueueManagedLabel: "true"}
			ns := NewNamespace(t, cp.Client, managed)
			dsc := CreateDSC(t, cp.Client, state)

			WaitCondition(t, cp.Client, dsc.Name, metav1.ConditionFalse, dscv1.ReasonRemoved)
			got, _, _ := KueueReady(context.Background(), cp.Client, dsc.Name)
			if s := got.Status.Components.Kueue.ManagementState; s != dscv1.Removed {
				t.Errorf("status.components.kueue.managementState = %q, want Removed", s)
			}
			if got.Spec.Components.Kueue.Enabled() {
				t.Errorf("KueueComponent.Enabled() = true for state %q; webhooks would enforce queue names", state)
			}

			project := NewNamespace(t, cp.Client, map[string]string{odhv1alpha.DashboardProjectLabel: "true"})
			Consistently(t, 2*time.Second, nothingChanged(ns, managed))
			Consistently(t, time.Second, nothingChanged(project, map[string]string{odhv1alpha.DashboardProjectLabel: "true"}))
		})
	}
}

// Behaviour 4: leaving Unmanaged for Removed leaves the Kueue CR, the
// operator (its CRD) and the defaults in place.
func TestRemovedAfterUnmanagedLeavesKueueCRAndOperatorInPlace(t *testing.T) {
	Clean(t, cp.Client)
	ns := NewNamespace(t, cp.Client, map[string]string{dscv1.KueueManagedLabel: "true"})
	dsc := CreateDSC(t, cp.Client, dscv1.Unmanaged)
	WaitCondition(t, cp.Client, dsc.Name, metav1.ConditionTrue, dscv1.ReasonReady)
	lq := &kueue.LocalQueue{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: dscv1.DefaultQueueName}}
	Eventually(t, Timeout, func(ctx context.Context) error {
		return cp.Client.Get(ctx, client.ObjectKeyFromObject(lq), lq)
	})

	SetState(t, cp.Client, dsc.Name, dscv1.Removed)
	WaitCondition(t, cp.Client, dsc.Name, metav1.ConditionFalse, dscv1.ReasonRemoved)
	Consistently(t, 2*time.Second, func(ctx context.Context) error {
		for _, o := range []client.Object{
			&kueueoperatorv1.Kueue{ObjectMeta: metav1.ObjectMeta{Name: kueueoperatorv1.InstanceName}},
			&apiextensionsv1.CustomResourceDefinition{ObjectMeta: metav1.ObjectMeta{Name: kueueoperatorv1.CRDName}},
			&kueue.ClusterQueue{ObjectMeta: metav1.ObjectMeta{Name: dscv1.DefaultQueueName}},
			&kueue.ResourceFlavor{ObjectMeta: metav1.ObjectMeta{Name: "default-flavor"}},
			lq,
		} {
			if err := cp.Client.Get(ctx, client.ObjectKeyFromObject(o), o); err != nil {
				return fmt.Errorf("after Unmanaged → Removed: %w", err)
			}
			if o.GetDeletionTimestamp() != nil {
				return fmt.Errorf("after Unmanaged → Removed: %T %s is being deleted", o, o.GetName())
			}
		}
		return nil
	})
}
