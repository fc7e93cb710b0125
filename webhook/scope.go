package webhook

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"

	dscv1 "github.com/kueue-sim/kueue-sim/api/datasciencecluster/v1"
)

// Scope says whether the platform's Kueue policy applies to a namespace, and
// why: the rules' messages quote it.
type Scope struct {
	// DataScienceCluster names the active DataScienceCluster; "" if none.
	DataScienceCluster string
	// KueueState is its Kueue managementState (Removed when absent).
	KueueState dscv1.ManagementState
	// DefaultLocalQueue is the LocalQueue the platform creates in every
	// Kueue-managed namespace.
	DefaultLocalQueue string
	// Namespace is the workload's namespace.
	Namespace string
	// ManagedBy is the label (key=value) that makes the namespace
	// Kueue-managed; "" when it is not.
	ManagedBy string
}

// ScopeOf computes the scope of namespace ns (nil: absent) under the active
// DataScienceCluster dsc (nil: none).
func ScopeOf(dsc *dscv1.DataScienceCluster, nsName string, ns *corev1.Namespace) Scope {
	s := Scope{KueueState: dscv1.Removed, DefaultLocalQueue: dscv1.DefaultQueueName, Namespace: nsName}
	if dsc != nil {
		s.DataScienceCluster = dsc.Name
		s.KueueState = dsc.Spec.Components.Kueue.State()
		s.DefaultLocalQueue = dsc.Spec.Components.Kueue.LocalQueueName()
	}
	if ns != nil {
		switch {
		case ns.Labels[dscv1.KueueManagedLabel] == "true":
			s.ManagedBy = dscv1.KueueManagedLabel + "=true"
		case ns.Labels[dscv1.LegacyKueueManagedLabel] == "true":
			s.ManagedBy = dscv1.LegacyKueueManagedLabel + "=true"
		}
	}
	return s
}

// KueueEnabled is true when the DataScienceCluster has Kueue Managed or
// Unmanaged.
func (s Scope) KueueEnabled() bool {
	return s.KueueState == dscv1.Managed || s.KueueState == dscv1.Unmanaged
}

// Enforced is true when the policy applies: Kueue enabled and the namespace
// Kueue-managed.
func (s Scope) Enforced() bool { return s.KueueEnabled() && s.ManagedBy != "" }

// why explains an enforced scope for messages.
func (s Scope) why() string {
	return fmt.Sprintf("namespace %q is Kueue-managed (label %s) and DataScienceCluster %q has Kueue %s",
		s.Namespace, s.ManagedBy, s.DataScienceCluster, s.KueueState)
}
