// Package lint reports, without creating anything, what the platform's Kueue
// policy (package webhook) would refuse or what would leave workloads stuck:
// the risks of rules 3 to 5 and hardware-profile mistakes, in a set of
// objects read from a live cluster (FromCluster) or built from a scenario
// (Objects.Add).
//
// Each workload goes through webhook.Default and webhook.Validate, the same
// functions the admission webhooks run, as if it were created now: a
// Notebook whose ClusterQueue became preemptive after it was admitted is
// reported, though the webhook let it through then. Cluster-wide checks add
// what no single admission sees: hardware profiles that name missing
// LocalQueues or WorkloadPriorityClasses or schedule by node, and a
// preemptive default ClusterQueue.
//
// `sim lint --kubeconfig PATH` (cmd/sim) runs Run over FromCluster and exits
// 1 on findings.
package lint
