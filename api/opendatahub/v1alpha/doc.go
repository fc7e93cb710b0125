// Package v1alpha holds the OdhDashboardConfig type of the OpenShift AI
// dashboard (opendatahub.io/v1alpha), reduced to the setting kueue-sim reads
// (disableKueue), and the label the dashboard puts on the projects it
// creates.
//
// +kubebuilder:object:generate=true
// +groupName=opendatahub.io
package v1alpha
