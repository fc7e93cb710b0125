package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// ManagementState says whether the platform runs a component.
// +kubebuilder:validation:Enum=Managed;Unmanaged;Removed;""
type ManagementState string

const (
	// Managed: the platform deploys and runs the component itself. For Kueue
	// this is deprecated: the embedded Kueue gives way to the Red Hat build
	// of Kueue operator (Unmanaged).
	Managed ManagementState = "Managed"
	// Unmanaged: for Kueue, the Red Hat build of Kueue operator runs Kueue;
	// the platform creates its Kueue CR and default queues and enforces
	// queue names in Kueue-managed namespaces.
	Unmanaged ManagementState = "Unmanaged"
	// Removed: the platform does nothing for the component. An empty state
	// means Removed.
	Removed ManagementState = "Removed"
)

// DefaultQueueName is the default of defaultClusterQueueName and
// defaultLocalQueueName.
const DefaultQueueName = "default"

// DataScienceCluster is OpenShift AI's switchboard: which components the
// platform runs. The platform acts on one instance, the oldest; others are
// refused with a condition.
//
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:scope=Cluster,shortName=dsc
// +kubebuilder:printcolumn:name="Kueue",type=string,JSONPath=`.status.components.kueue.managementState`
// +kubebuilder:printcolumn:name="Ready",type=string,JSONPath=`.status.conditions[?(@.type=="KueueReady")].status`
// +kubebuilder:printcolumn:name="Reason",type=string,JSONPath=`.status.conditions[?(@.type=="KueueReady")].reason`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
type DataScienceCluster struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// +optional
	Spec DataScienceClusterSpec `json:"spec,omitempty"`
	// +optional
	Status DataScienceClusterStatus `json:"status,omitempty"`
}

// DataScienceClusterSpec selects the components the platform runs.
type DataScienceClusterSpec struct {
	// components configures each component; only Kueue is modelled.
	// +optional
	// +kubebuilder:default={}
	Components Components `json:"components,omitempty"`
}

// Components holds one entry per component.
type Components struct {
	// kueue configures the Kueue integration.
	// +optional
	// +kubebuilder:default={}
	Kueue KueueComponent `json:"kueue,omitempty"`
}

// KueueComponent configures the platform's Kueue integration.
type KueueComponent struct {
	// managementState: Unmanaged (the Red Hat build of Kueue operator runs
	// Kueue), Managed (deprecated embedded Kueue) or Removed; empty means
	// Removed.
	// +optional
	ManagementState ManagementState `json:"managementState,omitempty"`

	// defaultClusterQueueName names the ClusterQueue the platform creates
	// when absent.
	// +optional
	// +kubebuilder:default=default
	// +kubebuilder:validation:MaxLength=253
	// +kubebuilder:validation:Pattern=`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`
	DefaultClusterQueueName string `json:"defaultClusterQueueName,omitempty"`

	// defaultLocalQueueName names the LocalQueue the platform creates in
	// every Kueue-managed namespace when absent.
	// +optional
	// +kubebuilder:default=default
	// +kubebuilder:validation:MaxLength=253
	// +kubebuilder:validation:Pattern=`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`
	DefaultLocalQueueName string `json:"defaultLocalQueueName,omitempty"`
}

// DataScienceClusterStatus is what the platform observed and did.
type DataScienceClusterStatus struct {
	// components reports each component.
	// +optional
	Components ComponentsStatus `json:"components,omitempty"`

	// conditions: KueueReady says whether the Kueue integration works as
	// configured and, when not, why and what to do.
	// +optional
	// +listType=map
	// +listMapKey=type
	Conditions []metav1.Condition `json:"conditions,omitempty"`

	// observedGeneration is the spec generation the conditions describe.
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
}

// ComponentsStatus holds one entry per component.
type ComponentsStatus struct {
	// +optional
	Kueue KueueComponentStatus `json:"kueue,omitempty"`
}

// KueueComponentStatus reports the Kueue integration.
type KueueComponentStatus struct {
	// managementState is the state the platform last acted on (empty spec
	// state is reported as Removed). Leaving Managed for Removed is told
	// from leaving Unmanaged by this field.
	// +optional
	ManagementState ManagementState `json:"managementState,omitempty"`
}

// DataScienceClusterList is a list of DataScienceClusters.
//
// +kubebuilder:object:root=true
type DataScienceClusterList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []DataScienceCluster `json:"items"`
}

func init() {
	SchemeBuilder.Register(&DataScienceCluster{}, &DataScienceClusterList{})
}
