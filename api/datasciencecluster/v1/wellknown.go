package v1

// Labels, annotations and condition types of the platform's Kueue
// integration, shared by the reconciler and the admission webhooks.
const (
	// KueueManagedLabel marks a namespace as Kueue-managed (value "true").
	KueueManagedLabel = "kueue.openshift.io/managed"
	// LegacyKueueManagedLabel is the older spelling of KueueManagedLabel;
	// either one makes a namespace Kueue-managed, and the platform sets
	// both.
	LegacyKueueManagedLabel = "kueue-managed"

	// ManagedAnnotation with value "false" marks an object the platform
	// created once and then leaves to the admin: never updated, re-created
	// only when absent.
	ManagedAnnotation = "opendatahub.io/managed"

	// ConditionKueueReady is the DataScienceCluster condition of the Kueue
	// integration.
	ConditionKueueReady = "KueueReady"
)

// Reasons of the KueueReady condition.
const (
	// ReasonReady: Unmanaged with the operator installed; the Kueue CR and
	// the defaults are in place.
	ReasonReady = "Ready"
	// ReasonRemoved: the integration is off (Removed or empty state).
	ReasonRemoved = "Removed"
	// ReasonOperatorNotInstalled: Unmanaged, but the Red Hat build of Kueue
	// operator's CRD is absent; nothing is created.
	ReasonOperatorNotInstalled = "KueueOperatorNotInstalled"
	// ReasonManagedDeprecated: Managed is deprecated; the platform still
	// creates its defaults.
	ReasonManagedDeprecated = "ManagedDeprecated"
	// ReasonManagedConflictsWithOperator: Managed while the operator is
	// installed; reconciliation stops and nothing is changed.
	ReasonManagedConflictsWithOperator = "ManagedConflictsWithOperator"
	// ReasonDuplicate: another DataScienceCluster is the active one; this
	// one is ignored.
	ReasonDuplicate = "DuplicateDataScienceCluster"
	// ReasonKueueCRFailed: creating the operator's Kueue CR failed.
	ReasonKueueCRFailed = "KueueCRFailed"
	// ReasonDefaultsFailed: creating a default ResourceFlavor, ClusterQueue
	// or LocalQueue failed (for instance, refused by a webhook or policy).
	ReasonDefaultsFailed = "DefaultsFailed"
	// ReasonNamespacesFailed: labelling a Kueue-managed namespace failed.
	ReasonNamespacesFailed = "NamespacesFailed"
	// ReasonCleanupFailed: removing what Managed created failed.
	ReasonCleanupFailed = "CleanupFailed"
)

// IsKueueManaged reports whether namespace labels make a namespace
// Kueue-managed: KueueManagedLabel or LegacyKueueManagedLabel is "true".
func IsKueueManaged(labels map[string]string) bool {
	return labels[KueueManagedLabel] == "true" || labels[LegacyKueueManagedLabel] == "true"
}
