package v1

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// Annotations by which a workload names its hardware profile.
const (
	// HardwareProfileNameAnnotation names the HardwareProfile a workload
	// uses.
	HardwareProfileNameAnnotation = "opendatahub.io/hardware-profile-name"
	// HardwareProfileNamespaceAnnotation names its namespace; absent means
	// the workload's own namespace.
	HardwareProfileNamespaceAnnotation = "opendatahub.io/hardware-profile-namespace"
)

// HardwareProfile describes the resources a workload asks for and how it is
// scheduled: through a Kueue LocalQueue (type Queue) or by node selector and
// tolerations (type Node).
//
// +kubebuilder:object:root=true
// +kubebuilder:resource:scope=Namespaced,shortName=hwp
// +kubebuilder:printcolumn:name="Scheduling",type=string,JSONPath=`.spec.scheduling.type`
// +kubebuilder:printcolumn:name="LocalQueue",type=string,JSONPath=`.spec.scheduling.kueue.localQueueName`
type HardwareProfile struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// +optional
	Spec HardwareProfileSpec `json:"spec,omitempty"`
}

// HardwareProfileSpec lists resource identifiers and the scheduling.
type HardwareProfileSpec struct {
	// identifiers are the resources the profile sets on a workload's
	// containers.
	// +optional
	// +listType=map
	// +listMapKey=identifier
	Identifiers []HardwareIdentifier `json:"identifiers,omitempty"`

	// scheduling says how workloads using the profile are placed.
	// +optional
	Scheduling *SchedulingSpec `json:"scheduling,omitempty"`
}

// ResourceType classifies an identifier.
// +kubebuilder:validation:Enum=CPU;Memory;Accelerator
type ResourceType string

const (
	ResourceTypeCPU         ResourceType = "CPU"
	ResourceTypeMemory      ResourceType = "Memory"
	ResourceTypeAccelerator ResourceType = "Accelerator"
)

// HardwareIdentifier is one resource of a profile with its counts.
type HardwareIdentifier struct {
	// identifier is the resource name, e.g. cpu, memory, nvidia.com/gpu.
	// +kubebuilder:validation:MinLength=1
	Identifier string `json:"identifier"`
	// displayName is shown in the dashboard.
	// +kubebuilder:validation:MinLength=1
	DisplayName string `json:"displayName"`
	// minCount is the least a workload may ask for.
	// +kubebuilder:validation:XIntOrString
	MinCount intstr.IntOrString `json:"minCount"`
	// maxCount is the most a workload may ask for; absent means no limit.
	// +optional
	// +kubebuilder:validation:XIntOrString
	MaxCount *intstr.IntOrString `json:"maxCount,omitempty"`
	// defaultCount is what a workload gets when it asks for nothing.
	// +kubebuilder:validation:XIntOrString
	DefaultCount intstr.IntOrString `json:"defaultCount"`
	// resourceType is CPU, Memory or Accelerator.
	// +optional
	ResourceType ResourceType `json:"resourceType,omitempty"`
}

// SchedulingType says how workloads using a profile are placed.
// +kubebuilder:validation:Enum=Queue;Node
type SchedulingType string

const (
	// QueueScheduling: through the Kueue LocalQueue named in kueue.
	QueueScheduling SchedulingType = "Queue"
	// NodeScheduling: by node selector and tolerations.
	NodeScheduling SchedulingType = "Node"
)

// SchedulingSpec places workloads through Kueue or by node.
//
// +kubebuilder:validation:XValidation:rule="self.type != 'Queue' || (has(self.kueue) && size(self.kueue.localQueueName) > 0)",message="scheduling.type Queue requires scheduling.kueue.localQueueName"
// +kubebuilder:validation:XValidation:rule="self.type != 'Queue' || !has(self.node)",message="scheduling.type Queue must not set scheduling.node: put node placement in the LocalQueue's ResourceFlavor"
// +kubebuilder:validation:XValidation:rule="self.type != 'Node' || has(self.node)",message="scheduling.type Node requires scheduling.node"
// +kubebuilder:validation:XValidation:rule="self.type != 'Node' || !has(self.kueue)",message="scheduling.type Node must not set scheduling.kueue"
type SchedulingSpec struct {
	// type is Queue or Node.
	Type SchedulingType `json:"type"`
	// kueue is required for type Queue and forbidden for type Node.
	// +optional
	Kueue *KueueSchedulingSpec `json:"kueue,omitempty"`
	// node is required for type Node and forbidden for type Queue.
	// +optional
	Node *NodeSchedulingSpec `json:"node,omitempty"`
}

// KueueSchedulingSpec names the LocalQueue and priority of queued workloads.
type KueueSchedulingSpec struct {
	// localQueueName is the LocalQueue (in the workload's namespace) the
	// workload is queued in.
	LocalQueueName string `json:"localQueueName"`
	// priorityClass is the Kueue WorkloadPriorityClass of the workload.
	// +optional
	PriorityClass string `json:"priorityClass,omitempty"`
}

// NodeSchedulingSpec places workloads on nodes directly.
type NodeSchedulingSpec struct {
	// +optional
	NodeSelector map[string]string `json:"nodeSelector,omitempty"`
	// +optional
	Tolerations []corev1.Toleration `json:"tolerations,omitempty"`
}

// HardwareProfileList is a list of HardwareProfiles.
//
// +kubebuilder:object:root=true
type HardwareProfileList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []HardwareProfile `json:"items"`
}

func init() {
	SchemeBuilder.Register(&HardwareProfile{}, &HardwareProfileList{})
}
