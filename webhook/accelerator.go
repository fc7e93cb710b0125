package webhook

import (
	"fmt"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// ValidateAccelerator is rule 4: where the policy is enforced, a workload
// must not use an AcceleratorProfile.
func ValidateAccelerator(w *Workload, s Scope) field.ErrorList {
	name := w.Annotations[AcceleratorNameAnnotation]
	if !s.Enforced() || w.Deleting || name == "" {
		return nil
	}
	return field.ErrorList{field.Forbidden(acceleratorPath, fmt.Sprintf(
		"%s uses AcceleratorProfile %q (annotation %s); AcceleratorProfiles are deprecated and refused where Kueue places workloads: %s. "+
			"To fix: migrate to hardware profiles: remove the annotation %s and set %s to a HardwareProfile of scheduling type Queue",
		w, name, AcceleratorNameAnnotation, s.why(), AcceleratorNameAnnotation, HardwareProfileNameAnnotation)).WithOrigin(RuleAcceleratorProfile)}
}
