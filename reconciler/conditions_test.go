//go:build integration

package reconciler_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	admissionv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	dscv1 "github.com/kueue-sim/kueue-sim/api/datasciencecluster/v1"
	. "github.com/kueue-sim/kueue-sim/reconciler/reconcilertest"
	. "github.com/kueue-sim/kueue-sim/sim/cluster/clustertest"
)

// refuse makes the API server refuse op on group/resource (in namespace ns
// when set) with message, through a ValidatingAdmissionPolicy, until the
// returned function lifts it or the test ends.
func refuse(t *testing.T, group, res string, op admissionv1.OperationType, ns, message string) (lift func()) {
	t.Helper()
	name := Name(t) + "-" + res
	policy := &admissionv1.ValidatingAdmissionPolicy{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: admissionv1.ValidatingAdmissionPolicySpec{
			FailurePolicy: ptr.To(admissionv1.Fail),
			MatchConstraints: &admissionv1.MatchResources{ResourceRules: []admissionv1.NamedRuleWithOperations{{
				RuleWithOperations: admissionv1.RuleWithOperations{
					Operations: []admissionv1.OperationType{op},
					Rule:       admissionv1.Rule{APIGroups: []string{group}, APIVersions: []string{"*"}, Resources: []string{res}},
				},
			}}},
			Validations: []admissionv1.Validation{{Expression: "false", Message: message}},
		},
	}
	binding := &admissionv1.ValidatingAdmissionPolicyBinding{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: admissionv1.ValidatingAdmissionPolicyBindingSpec{
			PolicyName:        name,
			ValidationActions: []admissionv1.ValidationAction{admissionv1.Deny},
		},
	}
	if ns != "" {
		binding.Spec.MatchResources = &admissionv1.MatchResources{NamespaceSelector: &metav1.LabelSelector{
			MatchLabels: map[string]string{corev1.LabelMetadataName: ns},
		}}
	}
	Create(t, cp.Client, policy, binding)
	lift = func() {
		for _, o := range []client.Object{binding, policy} {
			if err := cp.Client.Delete(context.Background(), o); err != nil && !apierrors.IsNotFound(err) {
				t.Errorf("deleting %T %s: %v", o, o.GetName(), err)
			}
		}
	}
	t.Cleanup(lift)
	return lift
}

// Behaviour 8: every stop and every refusal shows as the
// DataScienceCluster's KueueReady condition (type, reason, and a message
// naming the cause) and as a Warning event; once the cause is gone the
// platform recovers. (The stops without the operator are tested in
// package nooperator.)
func TestStopsAndRefusalsAreConditionsAndEvents(t *testing.T) {
	refusals := []struct {
		name, group, resource string
		op                    admissionv1.OperationType
		namespaced            bool
		reason                string
	}{
		{"Kueue CR refused", "kueue.openshift.io", "kueues", admissionv1.Create, false, dscv1.ReasonKueueCRFailed},
		{"LocalQueue refused", "kueue.x-k8s.io", "localqueues", admissionv1.Create, true, dscv1.ReasonDefaultsFailed},
		{"namespace label refused", "", "namespaces", admissionv1.Update, true, dscv1.ReasonNamespacesFailed},
	}
	for _, tc := range refusals {
		t.Run(tc.name, func(t *testing.T) {
			Clean(t, cp.Client)
			ns := NewNamespace(t, cp.Client, map[string]string{dscv1.LegacyKueueManagedLabel: "true"})
			scope := ""
			if tc.namespaced {
				scope = ns
			}
			message := "frozen by the platform team's policy " + tc.resource
			lift := refuse(t, tc.group, tc.resource, tc.op, scope, message)
			// The API server picks policies up asynchronously: make sure
			// this one is in force before the platform acts.
			waitRefused(t, tc.group, tc.resource, ns)

			dsc := CreateDSC(t, cp.Client, dscv1.Unmanaged)
			cond := WaitCondition(t, cp.Client, dsc.Name, metav1.ConditionFalse, tc.reason)
			for _, want := range []string{message, "retries"} {
				if !strings.Contains(cond.Message, want) {
					t.Errorf("condition message %q does not contain %q", cond.Message, want)
				}
			}
			got, _, _ := KueueReady(context.Background(), cp.Client, dsc.Name)
			ev := WaitEvent(t, cp.Client, got, corev1.EventTypeWarning, tc.reason)
			if !strings.Contains(ev.Message, message) {
				t.Errorf("event message %q does not contain %q", ev.Message, message)
			}

			lift()
			WaitCondition(t, cp.Client, dsc.Name, metav1.ConditionTrue, dscv1.ReasonReady)
		})
	}

	t.Run("second DataScienceCluster refused", func(t *testing.T) {
		active := Platform(t, cp.Client, dscv1.Unmanaged)
		WaitCondition(t, cp.Client, active.Name, metav1.ConditionTrue, dscv1.ReasonReady)
		second := &dscv1.DataScienceCluster{ObjectMeta: metav1.ObjectMeta{Name: active.Name + "-second"}}
		second.Spec.Components.Kueue.ManagementState = dscv1.Removed
		Create(t, cp.Client, second)
		cond := WaitCondition(t, cp.Client, second.Name, metav1.ConditionFalse, dscv1.ReasonDuplicate)
		if !strings.Contains(cond.Message, active.Name) {
			t.Errorf("condition message %q does not name the active DataScienceCluster %s", cond.Message, active.Name)
		}
		WaitEvent(t, cp.Client, second, corev1.EventTypeWarning, dscv1.ReasonDuplicate)
		// The active one is unaffected: the second's Removed is ignored.
		WaitCondition(t, cp.Client, active.Name, metav1.ConditionTrue, dscv1.ReasonReady)
	})

	t.Run("Managed with the operator", func(t *testing.T) {
		dsc := Platform(t, cp.Client, dscv1.Managed)
		WaitCondition(t, cp.Client, dsc.Name, metav1.ConditionFalse, dscv1.ReasonManagedConflictsWithOperator)
		WaitEvent(t, cp.Client, dsc, corev1.EventTypeWarning, dscv1.ReasonManagedConflictsWithOperator)
	})
}

// waitRefused waits until a dry-run of what the platform would do is
// refused by the policy on group/resource.
func waitRefused(t *testing.T, group, res, ns string) {
	t.Helper()
	Eventually(t, Timeout, func(ctx context.Context) error {
		var err error
		switch res {
		case "kueues":
			k := kueueCRForDryRun()
			err = cp.Client.Create(ctx, k, client.DryRunAll)
		case "localqueues":
			err = cp.Client.Create(ctx, localQueue(ns, "dry-run"), client.DryRunAll)
		case "namespaces":
			var n corev1.Namespace
			if err := cp.Client.Get(ctx, client.ObjectKey{Name: ns}, &n); err != nil {
				return err
			}
			n.Labels["dry-run"] = "true"
			err = cp.Client.Update(ctx, &n, client.DryRunAll)
		}
		if err == nil {
			return fmt.Errorf("the policy on %s/%s is not in force yet", group, res)
		}
		if !strings.Contains(err.Error(), "frozen") {
			return fmt.Errorf("dry run failed for another reason: %w", err)
		}
		return nil
	})
}
