//go:build integration

package nooperator_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	dscv1 "github.com/kueue-sim/kueue-sim/api/datasciencecluster/v1"
	kueueoperatorv1 "github.com/kueue-sim/kueue-sim/api/kueueoperator/v1"
	"github.com/kueue-sim/kueue-sim/reconciler"
	. "github.com/kueue-sim/kueue-sim/reconciler/reconcilertest"
	"github.com/kueue-sim/kueue-sim/sim/cluster"
	. "github.com/kueue-sim/kueue-sim/sim/cluster/clustertest"
)

var cp *cluster.ControlPlane

func TestMain(m *testing.M) {
	Main(m, &cp, cluster.WithoutKueueOperator(), cluster.WithSetup(reconciler.SetupFunc()))
}

func namespaceLabels(ctx context.Context, name string) (map[string]string, error) {
	var ns corev1.Namespace
	err := cp.Client.Get(ctx, client.ObjectKey{Name: name}, &ns)
	return ns.Labels, err
}

// created lists what the platform created, by kind.
func created(ctx context.Context, opts ...client.ListOption) (map[string][]string, error) {
	out := map[string][]string{}
	opts = append(opts, client.MatchingLabels{reconciler.PartOfLabel: "kueue"})
	var rfs kueue.ResourceFlavorList
	var cqs kueue.ClusterQueueList
	var lqs kueue.LocalQueueList
	for _, l := range []client.ObjectList{&rfs, &cqs, &lqs} {
		if err := cp.Client.List(ctx, l, opts...); err != nil {
			return nil, err
		}
	}
	for _, o := range rfs.Items {
		out["ResourceFlavor"] = append(out["ResourceFlavor"], o.Name)
	}
	for _, o := range cqs.Items {
		out["ClusterQueue"] = append(out["ClusterQueue"], o.Name)
	}
	for _, o := range lqs.Items {
		out["LocalQueue"] = append(out["LocalQueue"], o.Namespace+"/"+o.Name)
	}
	return out, nil
}

// Behaviour 2: Unmanaged without the operator: KueueReady False, with a
// message naming the missing operator and how to install it; nothing else is
// created or changed.
func TestUnmanagedWithoutOperatorStopsAndNamesTheOperator(t *testing.T) {
	Clean(t, cp.Client)
	ns := NewNamespace(t, cp.Client, map[string]string{dscv1.KueueManagedLabel: "true"})
	dsc := CreateDSC(t, cp.Client, dscv1.Unmanaged)

	cond := WaitCondition(t, cp.Client, dsc.Name, metav1.ConditionFalse, dscv1.ReasonOperatorNotInstalled)
	for _, want := range []string{"Red Hat build of Kueue operator", "not installed", kueueoperatorv1.CRDName, "Install", "Removed"} {
		if !strings.Contains(cond.Message, want) {
			t.Errorf("condition message %q does not contain %q", cond.Message, want)
		}
	}
	WaitEvent(t, cp.Client, dsc, "Warning", dscv1.ReasonOperatorNotInstalled)
	Consistently(t, 2*time.Second, func(ctx context.Context) error {
		got, err := created(ctx)
		if err != nil {
			return err
		}
		if len(got) > 0 {
			return fmt.Errorf("the platform created %v without the operator", got)
		}
		l, err := namespaceLabels(ctx, ns)
		if err != nil {
			return err
		}
		if _, ok := l[dscv1.LegacyKueueManagedLabel]; ok {
			return fmt.Errorf("namespace %s was relabelled: %v", ns, l)
		}
		return nil
	})
}

// Behaviour 3 (without the operator): Managed is deprecated: KueueReady
// False with a reason telling to migrate to Unmanaged; the platform keeps
// its embedded mode and creates the defaults.
func TestManagedWithoutOperatorIsDeprecatedAndTellsToMigrate(t *testing.T) {
	Clean(t, cp.Client)
	ns := NewNamespace(t, cp.Client, map[string]string{dscv1.KueueManagedLabel: "true"})
	dsc := CreateDSC(t, cp.Client, dscv1.Managed)

	cond := WaitCondition(t, cp.Client, dsc.Name, metav1.ConditionFalse, dscv1.ReasonManagedDeprecated)
	for _, want := range []string{"deprecated", "migrate", "Unmanaged", "Red Hat build of Kueue operator"} {
		if !strings.Contains(cond.Message, want) {
			t.Errorf("condition message %q does not contain %q", cond.Message, want)
		}
	}
	WaitEvent(t, cp.Client, dsc, "Warning", dscv1.ReasonManagedDeprecated)
	Eventually(t, Timeout, func(ctx context.Context) error {
		var lq kueue.LocalQueue
		return cp.Client.Get(ctx, client.ObjectKey{Namespace: ns, Name: dscv1.DefaultQueueName}, &lq)
	})
	got, _, _ := KueueReady(context.Background(), cp.Client, dsc.Name)
	if s := got.Status.Components.Kueue.ManagementState; s != dscv1.Managed {
		t.Errorf("status.components.kueue.managementState = %q, want Managed", s)
	}
}

// Behaviour 4: leaving Managed for Removed removes what Managed created (the
// default flavors, ClusterQueue and LocalQueues) and nothing else.
func TestRemovedAfterManagedRemovesWhatManagedCreated(t *testing.T) {
	Clean(t, cp.Client)
	ns := NewNamespace(t, cp.Client, map[string]string{dscv1.KueueManagedLabel: "true"})
	// The admin's own queue, in the same namespace, is not the platform's.
	mine := &kueue.LocalQueue{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "mine"},
		Spec:       kueue.LocalQueueSpec{ClusterQueue: dscv1.DefaultQueueName},
	}
	Create(t, cp.Client, mine)
	dsc := CreateDSC(t, cp.Client, dscv1.Managed)
	WaitCondition(t, cp.Client, dsc.Name, metav1.ConditionFalse, dscv1.ReasonManagedDeprecated)
	want := map[string][]string{
		"ResourceFlavor": {reconciler.DefaultFlavor, reconciler.NvidiaGPUFlavor},
		"ClusterQueue":   {dscv1.DefaultQueueName},
		"LocalQueue":     {ns + "/" + dscv1.DefaultQueueName},
	}
	Eventually(t, Timeout, func(ctx context.Context) error {
		got, err := created(ctx, client.MatchingLabels{reconciler.CreatedUnderLabel: string(dscv1.Managed)})
		if err != nil {
			return err
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			return fmt.Errorf("created under Managed: %v, want %v", got, want)
		}
		return nil
	})

	SetState(t, cp.Client, dsc.Name, dscv1.Removed)
	WaitCondition(t, cp.Client, dsc.Name, metav1.ConditionFalse, dscv1.ReasonRemoved)
	Eventually(t, Timeout, func(ctx context.Context) error {
		got, err := created(ctx)
		if err != nil {
			return err
		}
		if len(got) > 0 {
			return fmt.Errorf("still there after Managed → Removed: %v", got)
		}
		return nil
	})
	WaitEvent(t, cp.Client, dsc, "Normal", "Deleted")
	if err := cp.Client.Get(context.Background(), client.ObjectKeyFromObject(mine), mine); err != nil || mine.DeletionTimestamp != nil {
		t.Errorf("the admin's LocalQueue %s/%s: %v (deleting: %v), want it left alone", ns, mine.Name, err, mine.DeletionTimestamp != nil)
	}
	got, _, _ := KueueReady(context.Background(), cp.Client, dsc.Name)
	if s := got.Status.Components.Kueue.ManagementState; s != dscv1.Removed {
		t.Errorf("status.components.kueue.managementState = %q, want Removed", s)
	}
}
