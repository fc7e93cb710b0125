// Package manifests loads the Kubernetes manifests a scenario lists under
// queues.manifests: multi-document YAML of Kueue objects (kueue.x-k8s.io
// v1beta2, or v1beta1 converted with Kueue's own conversions), OpenShift AI
// objects (DataScienceCluster, HardwareProfile, OdhDashboardConfig) and
// Namespaces, as a user would kubectl apply them.
//
// Each document is decoded strictly into the real Go type of its kind: every
// unknown field, every value of the wrong type is reported at once with the
// file, the line, the document's index and the field path, as the scenario
// loader reports its own problems. What kueue-sim cannot apply (another kind,
// a v1beta1 field with no v1beta2 equivalent) is refused the same way, so
// that nothing is half-applied. What the cluster fills in on its own (status,
// uid, resourceVersion, managedFields, ...) is dropped: manifests exported
// from a cluster load as they are.
//
// The package checks each manifest on its own and the set for names given
// twice. References between objects, and to the objects of the scenario's
// own schema, are checked by package scenarios, which sees both.
//
// LoadKueueConfig reads a Kueue Configuration file (cluster.kueueConfig) the
// same way, and LoadTemplate (or DecodeTemplateObject, for one given
// inline) a stream's template: one workload object of a kind TemplateKinds
// names, checked for what its kind's API server, webhooks or operator
// would refuse and what kueue-sim cannot run (templates.go).
package manifests
