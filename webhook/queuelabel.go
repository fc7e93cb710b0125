package webhook

import (
	"fmt"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// ValidateQueueLabel is rule 1: where the policy is enforced, w must carry a
// non-empty queue-name label.
func ValidateQueueLabel(w *Workload, s Scope) field.ErrorList {
	if !s.Enforced() || w.Deleting {
		return nil
	}
	q, ok := w.Queue()
	if ok && q != "" {
		return nil
	}
	fix := fmt.Sprintf("To fix: add the label %s=<LocalQueue name> (the platform's default LocalQueue is %q; list them with `kubectl get localqueues -n %s`), "+
		"or annotate the %s with %s=<name of a HardwareProfile of scheduling type Queue>, which sets the label",
		QueueLabel, s.DefaultLocalQueue, w.Namespace, w.Kind, HardwareProfileNameAnnotation)
	if !ok {
		return field.ErrorList{field.Required(queuePath, fmt.Sprintf(
			"%s must name a Kueue LocalQueue in the label %s: %s. %s", w, QueueLabel, s.why(), fix)).WithOrigin(RuleQueueLabel)}
	}
	return field.ErrorList{field.Invalid(queuePath, q, fmt.Sprintf(
		"%s has an empty label %s: %s, so it must name a Kueue LocalQueue. %s", w, QueueLabel, s.why(), fix)).WithOrigin(RuleQueueLabel)}
}
