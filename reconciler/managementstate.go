package reconciler

import (
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	dscv1 "github.com/kueue-sim/kueue-sim/api/datasciencecluster/v1"
	kueueoperatorv1 "github.com/kueue-sim/kueue-sim/api/kueueoperator/v1"
)

// plan is what one reconcile does, decided from the DataScienceCluster's
// Kueue management state, the state the platform last acted on, and whether
// the Red Hat build of Kueue operator is installed.
type plan struct {
	// cleanupManaged removes what the platform created while Managed.
	cleanupManaged bool
	// kueueCR creates the operator's Kueue CR when absent.
	kueueCR bool
	// namespaces sets both managed labels on Kueue-managed namespaces.
	namespaces bool
	// defaults creates the absent default flavors, ClusterQueue and
	// LocalQueues, labelled with the state they were created under.
	defaults bool
	// observed is written to status.components.kueue.managementState once
	// the plan succeeded.
	observed dscv1.ManagementState
	// cond is the KueueReady condition once the plan succeeded.
	cond condition
}

// condition is the KueueReady condition of the DataScienceCluster.
type condition struct {
	Status  metav1.ConditionStatus
	Reason  string
	Message string
}

// Messages of the KueueReady condition. Each says what happened and what to
// do about it.
var (
	msgReady = fmt.Sprintf("Kueue integration is Unmanaged: the Red Hat build of Kueue operator runs Kueue "+
		"(Kueue CR %q), the default queues exist and queue names are enforced in Kueue-managed namespaces.",
		kueueoperatorv1.InstanceName)
	msgRemoved = "Kueue integration is Removed: queue names are not enforced and the platform creates nothing. " +
		"What Unmanaged set up (the Kueue CR, the operator, the default queues) is left in place; " +
		"what Managed created is removed. To use Kueue, install the Red Hat build of Kueue operator and set " +
		"spec.components.kueue.managementState to Unmanaged."
	msgOperatorNotInstalled = fmt.Sprintf("spec.components.kueue.managementState is Unmanaged but the Red Hat build of "+
		"Kueue operator is not installed (CRD %s is absent), so nothing was created. Install the operator "+
		"(OperatorHub: \"Red Hat build of Kueue\"; in kueue-sim, start without leaving the operator out), "+
		"or set managementState to Removed.", kueueoperatorv1.CRDName)
	msgManagedDeprecated = "spec.components.kueue.managementState Managed (the embedded Kueue) is deprecated: " +
		"migrate by installing the Red Hat build of Kueue operator and setting managementState to Unmanaged. " +
		"Until then the platform keeps the embedded Kueue and creates its default queues."
	msgManagedConflict = "spec.components.kueue.managementState is Managed (the embedded Kueue) while the Red Hat " +
		"build of Kueue operator is installed: the two would manage the same Kueue resources, so the platform " +
		"stopped and changed nothing. Set managementState to Unmanaged to let the operator run Kueue, " +
		"or uninstall the operator."
)

// decide returns the plan for spec state (empty means Removed), the state
// last acted on (status), and whether the operator is installed. Stops keep
// the last acted-on state, so that leaving Managed later still removes what
// Managed created.
func decide(spec, last dscv1.ManagementState, operatorInstalled bool) plan {
	if spec == "" {
		spec = dscv1.Removed
	}
	switch spec {
	case dscv1.Unmanaged:
		if !operatorInstalled {
			return plan{observed: last, cond: condition{metav1.ConditionFalse, dscv1.ReasonOperatorNotInstalled, msgOperatorNotInstalled}}
		}
		return plan{kueueCR: true, namespaces: true, defaults: true, observed: dscv1.Unmanaged,
			cond: condition{metav1.ConditionTrue, dscv1.ReasonReady, msgReady}}
	case dscv1.Managed:
		if operatorInstalled {
			return plan{observed: last, cond: condition{metav1.ConditionFalse, dscv1.ReasonManagedConflictsWithOperator, msgManagedConflict}}
		}
		return plan{namespaces: true, defaults: true, observed: dscv1.Managed,
			cond: condition{metav1.ConditionFalse, dscv1.ReasonManagedDeprecated, msgManagedDeprecated}}
	default: // Removed
		return plan{cleanupManaged: last == dscv1.Managed, observed: dscv1.Removed,
			cond: condition{metav1.ConditionFalse, dscv1.ReasonRemoved, msgRemoved}}
	}
}
