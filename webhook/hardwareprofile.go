package webhook

import (
	"fmt"

	"k8s.io/apimachinery/pkg/util/validation/field"

	infrav1 "github.com/kueue-sim/kueue-sim/api/infrastructure/v1"
)

// noPriorityClass is the priorityClass value the OpenShift AI dashboard
// writes for "no priority class". It is not a valid object name, so it never
// names a WorkloadPriorityClass.
const noPriorityClass = "None"

// ProfileQueue returns the LocalQueue and priority class a hardware profile
// gives its workloads; ok is false unless the profile has scheduling type
// Queue with a LocalQueue.
func ProfileQueue(p *infrav1.HardwareProfile) (localQueue, priorityClass string, ok bool) {
	s := p.Spec.Scheduling
	if s == nil || s.Type != infrav1.QueueScheduling || s.Kueue == nil || s.Kueue.LocalQueueName == "" {
		return "", "", false
	}
	pc := s.Kueue.PriorityClass
	if pc == noPriorityClass {
		pc = ""
	}
	return s.Kueue.LocalQueueName, pc, true
}

// ApplyHardwareProfile is rule 2 for a profile that exists: a profile of
// scheduling type Queue sets w's queue-name label to its LocalQueue and, when
// it names one, w's priority-class label to its priority class. Replacing a
// different value is reported in a warning.
func ApplyHardwareProfile(w *Workload, p *infrav1.HardwareProfile) (warnings []string) {
	lq, pc, ok := ProfileQueue(p)
	if !ok {
		return nil
	}
	set := func(label, want, from string) {
		if have, ok := w.Labels[label]; ok && have != want {
			warnings = append(warnings, fmt.Sprintf(
				"%s: label %s=%q replaced by %q from HardwareProfile %q in namespace %q (its %s); "+
					"to keep your value, remove the annotation %s",
				w, label, have, want, p.Name, p.Namespace, from, HardwareProfileNameAnnotation))
		}
		w.setLabel(label, want)
	}
	set(QueueLabel, lq, "scheduling.kueue.localQueueName")
	if pc != "" {
		set(PriorityClassLabel, pc, "scheduling.kueue.priorityClass")
	}
	return warnings
}

// MissingHardwareProfile is rule 2's error for a profile that does not
// exist.
func MissingHardwareProfile(w *Workload, namespace, name string) *field.Error {
	return field.Invalid(profilePath, name, fmt.Sprintf(
		"%s names HardwareProfile %q in namespace %q (annotations %s and %s, whose default is the %s's own namespace), which does not exist. "+
			"To fix: name an existing profile (`kubectl get hardwareprofiles -n %s`), create it, or remove the annotations",
		w, name, namespace, HardwareProfileNameAnnotation, HardwareProfileNamespaceAnnotation, w.Kind, namespace)).WithOrigin(RuleHardwareProfile)
}

// ValidateProfileScheduling is rule 3: where the policy is enforced, a
// workload's hardware profile must not schedule by node.
func ValidateProfileScheduling(w *Workload, s Scope, p *infrav1.HardwareProfile) field.ErrorList {
	if !s.Enforced() || w.Deleting || p.Spec.Scheduling == nil || p.Spec.Scheduling.Type != infrav1.NodeScheduling {
		return nil
	}
	return field.ErrorList{field.Forbidden(profilePath, fmt.Sprintf(
		"%s uses HardwareProfile %q in namespace %q, whose scheduling type is Node (node selector and tolerations), "+
			"but %s, so Kueue must place it. To fix: use a HardwareProfile of scheduling type Queue whose scheduling.kueue.localQueueName "+
			"names a LocalQueue whose ClusterQueue's ResourceFlavor carries that placement (ResourceFlavor spec.nodeLabels and spec.tolerations)",
		w, p.Name, p.Namespace, s.why())).WithOrigin(RuleNodeProfile)}
}
