//go:build integration

package reconciler_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	dscv1 "github.com/kueue-sim/kueue-sim/api/datasciencecluster/v1"
	kueueoperatorv1 "github.com/kueue-sim/kueue-sim/api/kueueoperator/v1"
	"github.com/kueue-sim/kueue-sim/reconciler"
	. "github.com/kueue-sim/kueue-sim/reconciler/reconcilertest"
	. "github.com/kueue-sim/kueue-sim/sim/cluster/clustertest"
)

// nothingChanged checks that the platform created no Kueue CR and no
// default, and left the namespace's labels as they were.
func nothingChanged(ns string, labels map[string]string) func(ctx context.Context) error {
	return func(ctx context.Context) error {
		if err := Absent(ctx, cp.Client, &kueueoperatorv1.Kueue{ObjectMeta: metav1.ObjectMeta{Name: kueueoperatorv1.InstanceName}}); err != nil {
			return err
		}
		for _, l := range []client.ObjectList{&kueue.ResourceFlavorList{}, &kueue.ClusterQueueList{}, &kueue.LocalQueueList{}} {
			if err := cp.Client.List(ctx, l, client.MatchingLabels{reconciler.PartOfLabel: "kueue"}); err != nil {
				return err
			}
			if n := len(objects(l)); n > 0 {
				return fmt.Errorf("the platform created %d %T", n, l)
			}
		}
		var got corev1.Namespace
		if err := cp.Client.Get(ctx, client.ObjectKey{Name: ns}, &got); err != nil {
			return err
		}
		for k := range got.Labels {
			if k == corev1.LabelMetadataName {
				delete(got.Labels, k)
			}
		}
		if diff := cmp.Diff(labels, got.Labels); diff != "" {
			return fmt.Errorf("namespace %s labels changed (-before +after):\n%s", ns, diff)
		}
		return nil
	}
}

func objects(l client.ObjectList) []string {
	var names []string
	switch l := l.(type) {
	case *kueue.ResourceFlavorList:
		for _, o := range l.Items {
			names = append(names, o.Name)
		}
	case *kueue.ClusterQueueList:
		for _, o := range l.Items {
			names = append(names, o.Name)
		}
	case *kueue.LocalQueueList:
		for _, o := range l.Items {
			names = append(names, o.Namespace+"/"+o.Name)
		}
	}
	return names
}

// Behaviour 3 (with the operator installed): Managed is deprecated, and
// with the operator installed as well reconciliation stops: no object is
// changed and the condition says the two would manage the same resources.
func TestManagedWithOperatorStopsAndChangesNothing(t *testing.T) {
	Clean(t, cp.Client)
	labels := map[string]string{dscv1.LegacyKueueManagedLabel: "true"}
	ns := NewNamespace(t, cp.Client, labels)

	dsc := CreateDSC(t, cp.Client, dscv1.Managed)
	cond := WaitCondition(t, cp.Client, dsc.Name, metav1.ConditionFalse, dscv1.ReasonManagedConflictsWithOperator)
	for _, want := range []string{"same Kueue resources", "changed nothing", "Unmanaged"} {
		if !strings.Contains(cond.Message, want) {
			t.Errorf("condition message %q does not say %q", cond.Message, want)
		}
	}
	Consistently(t, 2*time.Second, nothingChanged(ns, labels))
	got, _, _ := KueueReady(context.Background(), cp.Client, dsc.Name)
	WaitEvent(t, cp.Client, got, "Warning", dscv1.ReasonManagedConflictsWithOperator)
}
