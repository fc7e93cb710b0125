package reconciler

import (
	"context"
	"errors"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	dscv1 "github.com/kueue-sim/kueue-sim/api/datasciencecluster/v1"
)

// stepError is a failed step of a plan and the KueueReady reason it is
// reported under.
type stepError struct {
	reason string
	err    error
}

func (e *stepError) Error() string { return e.err.Error() }
func (e *stepError) Unwrap() error { return e.err }

// failed wraps a step's error with its reason; nil stays nil.
func failed(reason string, err error) error {
	if err == nil {
		return nil
	}
	return &stepError{reason: reason, err: err}
}

// failureCondition is the KueueReady condition for a failed step: the
// refusal as the API server put it, and that the platform retries.
func failureCondition(err error) condition {
	reason := "ReconcileFailed"
	var se *stepError
	if errors.As(err, &se) {
		reason = se.reason
	}
	return condition{
		Status: metav1.ConditionFalse,
		Reason: reason,
		Message: fmt.Sprintf("%v. The platform retries with back-off; fix the cause named above "+
			"(for example the admission webhook or policy that refused the object).", err),
	}
}

// report writes the state acted on and the KueueReady condition to the
// DataScienceCluster's status, and records an event when the condition's
// status, reason or message changes: a Warning for a stop or a refusal, a
// Normal event otherwise.
func (r *Reconciler) report(ctx context.Context, dsc *dscv1.DataScienceCluster, observed dscv1.ManagementState, c condition) error {
	updated := dsc.DeepCopy()
	updated.Status.Components.Kueue.ManagementState = observed
	updated.Status.ObservedGeneration = dsc.Generation
	prev := apimeta.FindStatusCondition(dsc.Status.Conditions, dscv1.ConditionKueueReady)
	apimeta.SetStatusCondition(&updated.Status.Conditions, metav1.Condition{
		Type:               dscv1.ConditionKueueReady,
		Status:             c.Status,
		Reason:             c.Reason,
		Message:            c.Message,
		ObservedGeneration: dsc.Generation,
		LastTransitionTime: metav1.NewTime(r.clock.Now()),
	})
	if equality.Semantic.DeepEqual(dsc.Status, updated.Status) {
		return nil
	}
	if err := r.client.Status().Patch(ctx, updated, client.MergeFrom(dsc)); err != nil {
		return fmt.Errorf("writing the status of DataScienceCluster %s: %w", dsc.Name, err)
	}
	if prev == nil || prev.Status != c.Status || prev.Reason != c.Reason || prev.Message != c.Message {
		r.recorder.Event(updated, eventType(c), c.Reason, c.Message)
	}
	return nil
}

// eventType is Warning for a stop or a refusal, Normal otherwise.
func eventType(c condition) string {
	if c.Status == metav1.ConditionTrue || c.Reason == dscv1.ReasonRemoved {
		return corev1.EventTypeNormal
	}
	return corev1.EventTypeWarning
}
