// Package v1 holds the AcceleratorProfile type of the OpenShift AI dashboard
// (dashboard.opendatahub.io/v1). It is deprecated in favour of
// HardwareProfile; kueue-sim serves it so that its use in Kueue-managed
// namespaces can be refused.
//
// +kubebuilder:object:generate=true
// +groupName=dashboard.opendatahub.io
package v1
