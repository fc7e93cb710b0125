// Package plan is kueue-sim's capacity planner: it runs one scenario for
// every combination of varied fields (node counts, quotas, weights, ...),
// each as its own `sim run` process (one Kueue per process), several at a
// time, and finds the smallest configuration that meets every expectation
// of the scenario.
//
// A Path names the field to vary (cluster.nodePools[a100].count); a Vary
// gives its values, and several paths joined by ";" move together (nodes
// and the quota that matches them). Combinations are numbered, so a sweep
// splits deterministically into shards (--shard i/n, e.g. one per pod of
// a Kubernetes Indexed Job) whose plan.json files Merge joins. "Smallest"
// means the least capacity of the report's resource (GPUs), then the
// smallest varied values in --vary order.
package plan
