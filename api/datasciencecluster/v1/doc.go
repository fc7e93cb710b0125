// Package v1 holds the DataScienceCluster type of OpenShift AI
// (datasciencecluster.opendatahub.io/v1), reduced to its Kueue component,
// and the well-known labels and annotations of the platform's Kueue
// integration.
//
// +kubebuilder:object:generate=true
// +groupName=datasciencecluster.opendatahub.io
package v1
