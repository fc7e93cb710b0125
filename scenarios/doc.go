// Package scenarios is the scenario schema (kueue-sim/v1alpha1) and its
// loader: strict decoding (unknown fields are errors), then defaults, then
// validation of everything at once, each error naming the file, the line, the
// field path and the fix — the order Kueue's own configuration loader uses.
//
// A scenario may name other files: Kubernetes manifests of its queues
// and of its changes (queues.manifests, changes[].apply, loaded by package
// manifests), a Kueue Configuration
// (cluster.kueueConfig) and its streams' templates (workloads[].template,
// the user's own workload objects, also given inline; template.go). Load
// reads and checks them with the scenario, so
// their problems are reported with the scenario's, each with its own file,
// and keeps what they hold in Scenario.Loaded; the accessors of view.go give
// the queue facts of the schema and the manifests alike.
//
// The bundled scenarios (*.yaml in this folder) are examples and, with their
// expectations, part of the test suite.
package scenarios
