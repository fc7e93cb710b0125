// Package api holds the Go types of the OpenShift AI and Red Hat build of
// Kueue APIs kueue-sim serves, one package per group and version:
//
//   - datasciencecluster/v1: DataScienceCluster
//     (datasciencecluster.opendatahub.io/v1), the platform's switchboard; only
//     its Kueue component is modelled.
//   - opendatahub/v1alpha: OdhDashboardConfig (opendatahub.io/v1alpha), the
//     dashboard's settings; only disableKueue is read.
//   - infrastructure/v1: HardwareProfile (infrastructure.opendatahub.io/v1),
//     with the platform's CEL rules on scheduling.
//   - dashboard/v1: AcceleratorProfile (dashboard.opendatahub.io/v1),
//     deprecated, kept so that its use can be refused.
//   - kueueoperator/v1: Kueue (kueue.openshift.io/v1), the custom resource of
//     the Red Hat build of Kueue operator. Its CRD is optional: its presence
//     is what "the operator is installed" means.
//
// The types keep the fields kueue-sim reads or a scenario may set; unknown
// fields of the real APIs are kept (not pruned) where real manifests carry
// many more. CRDs are generated from these types by controller-gen
// (hack/generate.sh) into config/crd/bases and config/crd/optional.
package api
