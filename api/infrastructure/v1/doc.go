// Package v1 holds the HardwareProfile type of OpenShift AI
// (infrastructure.opendatahub.io/v1) with the platform's CEL rules on
// scheduling, and the annotations by which workloads name a profile.
//
// +kubebuilder:object:generate=true
// +groupName=infrastructure.opendatahub.io
package v1
