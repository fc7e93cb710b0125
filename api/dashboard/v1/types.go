package v1

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// AcceleratorNameAnnotation names the AcceleratorProfile a workload uses.
const AcceleratorNameAnnotation = "opendatahub.io/accelerator-name"

// AcceleratorProfile describes an accelerator (resource identifier and
// tolerations). Deprecated: use infrastructure.opendatahub.io/v1
// HardwareProfile.
//
// +kubebuilder:object:root=true
// +kubebuilder:resource:scope=Namespaced
// +kubebuilder:deprecatedversion:warning="dashboard.opendatahub.io/v1 AcceleratorProfile is deprecated: use infrastructure.opendatahub.io/v1 HardwareProfile"
// +kubebuilder:printcolumn:name="Identifier",type=string,JSONPath=`.spec.identifier`
// +kubebuilder:printcolumn:name="Enabled",type=boolean,JSONPath=`.spec.enabled`
type AcceleratorProfile struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// +optional
	Spec AcceleratorProfileSpec `json:"spec,omitempty"`
}

// AcceleratorProfileSpec describes one accelerator.
type AcceleratorProfileSpec struct {
	// displayName is shown in the dashboard.
	DisplayName string `json:"displayName"`
	// enabled says whether the dashboard offers the profile.
	Enabled bool `json:"enabled"`
	// identifier is the extended resource name, e.g. nvidia.com/gpu.
	Identifier string `json:"identifier"`
	// +optional
	Description string `json:"description,omitempty"`
	// tolerations are added to workloads using the profile.
	// +optional
	Tolerations []corev1.Toleration `json:"tolerations,omitempty"`
}

// AcceleratorProfileList is a list of AcceleratorProfiles.
//
// +kubebuilder:object:root=true
type AcceleratorProfileList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []AcceleratorProfile `json:"items"`
}

func init() {
	SchemeBuilder.Register(&AcceleratorProfile{}, &AcceleratorProfileList{})
}
