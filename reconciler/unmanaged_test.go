//go:build integration

package reconciler_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	dscv1 "github.com/kueue-sim/kueue-sim/api/datasciencecluster/v1"
	kueueoperatorv1 "github.com/kueue-sim/kueue-sim/api/kueueoperator/v1"
	. "github.com/kueue-sim/kueue-sim/reconciler/reconcilertest"
	. "github.com/kueue-sim/kueue-sim/sim/cluster/clustertest"
)

func kueueCRForDryRun() *kueueoperatorv1.Kueue {
	return &kueueoperatorv1.Kueue{
		ObjectMeta: metav1.ObjectMeta{Name: kueueoperatorv1.InstanceName},
		Spec: kueueoperatorv1.KueueSpec{Config: kueueoperatorv1.KueueConfiguration{Integrations: kueueoperatorv1.Integrations{
			Frameworks: []kueueoperatorv1.Framework{kueueoperatorv1.FrameworkPod},
		}}},
	}
}

func getKueueCR(ctx context.Context) (*kueueoperatorv1.Kueue, error) {
	var k kueueoperatorv1.Kueue
	err := cp.Client.Get(ctx, client.ObjectKey{Name: kueueoperatorv1.InstanceName}, &k)
	return &k, err
}

// Behaviour 1: Unmanaged with the operator installed creates the Kueue CR
// "cluster" when absent, with the platform's frameworks, never overwrites an
// existing one, and reports KueueReady True.
func TestUnmanagedWithOperatorCreatesKueueCRAndIsReady(t *testing.T) {
	t.Run("creates the Kueue CR when absent", func(t *testing.T) {
		dsc := Platform(t, cp.Client, dscv1.Unmanaged)
		WaitCondition(t, cp.Client, dsc.Name, metav1.ConditionTrue, dscv1.ReasonReady)

		k, err := getKueueCR(context.Background())
		if err != nil {
			t.Fatalf("the Kueue CR: %v", err)
		}
		want := []kueueoperatorv1.Framework{"PyTorchJob", "RayJob", "RayCluster", "Pod", "Deployment", "StatefulSet"}
		if diff := cmp.Diff(want, k.Spec.Config.Integrations.Frameworks); diff != "" {
			t.Errorf("Kueue CR frameworks (-want +got):\n%s", diff)
		}
		if k.Spec.ManagementState != kueueoperatorv1.Managed {
			t.Errorf("Kueue CR managementState = %q, want Managed (the operator runs Kueue)", k.Spec.ManagementState)
		}
		if got := k.Annotations[dscv1.ManagedAnnotation]; got != "false" {
			t.Errorf("Kueue CR annotation %s = %q, want \"false\"", dscv1.ManagedAnnotation, got)
		}
		got, _, _ := KueueReady(context.Background(), cp.Client, dsc.Name)
		if got.Status.Components.Kueue.ManagementState != dscv1.Unmanaged {
			t.Errorf("status.components.kueue.managementState = %q, want Unmanaged", got.Status.Components.Kueue.ManagementState)
		}
		WaitEvent(t, cp.Client, got, "Normal", dscv1.ReasonReady)

		// An admin deletes it: absent again, so the platform re-creates it.
		if err := cp.Client.Delete(context.Background(), k); err != nil {
			t.Fatal(err)
		}
		Eventually(t, Timeout, func(ctx context.Context) error {
			again, err := getKueueCR(ctx)
			if err != nil {
				return err
			}
			if again.UID == k.UID {
				return fmt.Errorf("still the deleted Kueue CR")
			}
			return nil
		})
	})

	t.Run("never overwrites an existing Kueue CR", func(t *testing.T) {
		Clean(t, cp.Client)
		mine := &kueueoperatorv1.Kueue{
			ObjectMeta: metav1.ObjectMeta{Name: kueueoperatorv1.InstanceName},
			Spec: kueueoperatorv1.KueueSpec{
				ManagementState: kueueoperatorv1.Unmanaged,
				Config: kueueoperatorv1.KueueConfiguration{Integrations: kueueoperatorv1.Integrations{
					Frameworks: []kueueoperatorv1.Framework{kueueoperatorv1.FrameworkBatchJob},
				}},
			},
		}
		Create(t, cp.Client, mine)
		dsc := CreateDSC(t, cp.Client, dscv1.Unmanaged)
		WaitCondition(t, cp.Client, dsc.Name, metav1.ConditionTrue, dscv1.ReasonReady)
		Consistently(t, 2*time.Second, func(ctx context.Context) error {
			k, err := getKueueCR(ctx)
			if err != nil {
				return err
			}
			if k.UID != mine.UID || k.Generation != mine.Generation || k.ResourceVersion != mine.ResourceVersion {
				return fmt.Errorf("the admin's Kueue CR was replaced or changed: %+v", k.Spec)
			}
			return nil
		})
	})
}
