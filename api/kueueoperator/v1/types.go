package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

const (
	// InstanceName is the name of the one Kueue object.
	InstanceName = "cluster"
	// CRDName is the name of the Kueue CRD, whose presence means the
	// operator is installed.
	CRDName = "kueues.kueue.openshift.io"
)

// ManagementState says whether the operator runs Kueue.
// +kubebuilder:validation:Enum=Managed;Unmanaged;Removed;Force
type ManagementState string

const (
	Managed   ManagementState = "Managed"
	Unmanaged ManagementState = "Unmanaged"
	Removed   ManagementState = "Removed"
)

// Kueue tells the Red Hat build of Kueue operator how to run Kueue.
//
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:scope=Cluster
// +kubebuilder:validation:XValidation:rule="self.metadata.name == 'cluster'",message="Kueue is a singleton, .metadata.name must be 'cluster'"
// +kubebuilder:printcolumn:name="State",type=string,JSONPath=`.spec.managementState`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
type Kueue struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec KueueSpec `json:"spec"`
	// +optional
	Status KueueStatus `json:"status,omitempty"`
}

// KueueSpec is the operator's desired configuration.
type KueueSpec struct {
	// managementState: Managed (the operator runs Kueue), Unmanaged,
	// Removed or Force.
	// +optional
	// +kubebuilder:default=Managed
	ManagementState ManagementState `json:"managementState,omitempty"`
	// config is Kueue's configuration.
	Config KueueConfiguration `json:"config"`
}

// Framework is a Kueue job integration the operator enables.
// +kubebuilder:validation:Enum=BatchJob;RayJob;RayCluster;RayService;JobSet;MPIJob;PaddleJob;PyTorchJob;TFJob;TrainJob;XGBoostJob;JaxJob;AppWrapper;Pod;Deployment;StatefulSet;LeaderWorkerSet;SparkApplication
type Framework string

// Frameworks the platform names.
const (
	FrameworkBatchJob    Framework = "BatchJob"
	FrameworkPyTorchJob  Framework = "PyTorchJob"
	FrameworkRayJob      Framework = "RayJob"
	FrameworkRayCluster  Framework = "RayCluster"
	FrameworkPod         Framework = "Pod"
	FrameworkDeployment  Framework = "Deployment"
	FrameworkStatefulSet Framework = "StatefulSet"
)

// KueueConfiguration configures Kueue. Only integrations is modelled; the
// operator's other sections (workloadManagement, gangScheduling, preemption,
// ...) are kept as written.
// +kubebuilder:pruning:PreserveUnknownFields
type KueueConfiguration struct {
	// integrations are the job integrations Kueue manages.
	Integrations Integrations `json:"integrations"`
}

// Integrations lists Kueue's job integrations.
type Integrations struct {
	// frameworks are the built-in integrations to enable.
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=18
	// +listType=set
	Frameworks []Framework `json:"frameworks"`
	// externalFrameworks are integrations served by other controllers.
	// +optional
	// +listType=map
	// +listMapKey=group
	ExternalFrameworks []ExternalFramework `json:"externalFrameworks,omitempty"`
	// labelKeysToCopy are label keys copied from jobs to their Workloads.
	// +optional
	// +listType=map
	// +listMapKey=key
	LabelKeysToCopy []LabelKey `json:"labelKeysToCopy,omitempty"`
}

// ExternalFramework names a group, version and resource managed for Kueue by
// another controller.
type ExternalFramework struct {
	Group    string `json:"group"`
	Resource string `json:"resource"`
	Version  string `json:"version"`
}

// LabelKey is a label key to copy.
type LabelKey struct {
	Key string `json:"key"`
}

// KueueStatus is what the operator reports. kueue-sim runs no operator, so
// nothing writes it.
type KueueStatus struct {
	// +optional
	// +listType=map
	// +listMapKey=type
	Conditions []metav1.Condition `json:"conditions,omitempty"`
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
}

// KueueList is a list of Kueue objects.
//
// +kubebuilder:object:root=true
type KueueList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Kueue `json:"items"`
}

func init() {
	SchemeBuilder.Register(&Kueue{}, &KueueList{})
}
