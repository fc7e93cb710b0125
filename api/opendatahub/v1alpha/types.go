package v1alpha

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// DashboardProjectLabel with value "true" marks a namespace the dashboard
// created as a data science project.
const DashboardProjectLabel = "opendatahub.io/dashboard"

// DefaultName is the name the platform gives its OdhDashboardConfig.
const DefaultName = "odh-dashboard-config"

// OdhDashboardConfig holds the dashboard's settings. The platform's
// dashboard reads the one in its applications namespace; kueue-sim treats
// Kueue as disabled in the dashboard when any OdhDashboardConfig sets
// disableKueue.
//
// +kubebuilder:object:root=true
// +kubebuilder:resource:scope=Namespaced
// +kubebuilder:printcolumn:name="DisableKueue",type=boolean,JSONPath=`.spec.dashboardConfig.disableKueue`
type OdhDashboardConfig struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// +optional
	Spec OdhDashboardConfigSpec `json:"spec,omitempty"`
}

// OdhDashboardConfigSpec is the dashboard's configuration.
// +kubebuilder:pruning:PreserveUnknownFields
type OdhDashboardConfigSpec struct {
	// dashboardConfig holds feature flags; only disableKueue is modelled,
	// the others are kept as written.
	// +optional
	DashboardConfig DashboardConfig `json:"dashboardConfig,omitempty"`
}

// DashboardConfig holds the dashboard's feature flags.
// +kubebuilder:pruning:PreserveUnknownFields
type DashboardConfig struct {
	// disableKueue hides Kueue in the dashboard: projects it creates are not
	// made Kueue-managed. Default false.
	// +optional
	DisableKueue bool `json:"disableKueue,omitempty"`
}

// OdhDashboardConfigList is a list of OdhDashboardConfigs.
//
// +kubebuilder:object:root=true
type OdhDashboardConfigList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []OdhDashboardConfig `json:"items"`
}

func init() {
	SchemeBuilder.Register(&OdhDashboardConfig{}, &OdhDashboardConfigList{})
}
