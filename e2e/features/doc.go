// Package features holds kueue-sim's end-to-end features, written with
// sigs.k8s.io/e2e-framework, for any cluster that runs Kueue v0.17 and
// kueue-sim's reconciler, webhooks and fake operators and has GPU nodes of
// two models:
//
//   - QueueLabel: in a Kueue-managed namespace a PyTorchJob without the
//     kueue.x-k8s.io/queue-name label is refused; with it, or outside
//     managed namespaces, it is admitted.
//   - HardwareProfileQueue: a PyTorchJob annotated with a hardware profile of
//     scheduling type Queue gets the profile's LocalQueue as its queue
//     label; a missing profile is refused.
//   - DefaultQueue: a new Kueue-managed namespace gets the platform's
//     default LocalQueue, leading to the default non-preemptive
//     ClusterQueue, and a Job in it is admitted by Kueue.
//   - NotebookQueues: a Notebook on a LocalQueue of a preemptive ClusterQueue
//     is refused; on a non-preemptive one it is admitted.
//   - FlavorPlacement: GPU Jobs fill the first flavor's quota, then the
//     second's, and kube-scheduler places each pod on a node of the flavor
//     Kueue admitted it on.
//
// The suites that run them make the cluster: e2e/kwok (container-free, here
// and in CI) and e2e/kind (Docker and kind). They describe the cluster with
// a Cluster value. Every feature works in namespaces and cluster-scoped
// objects of its own, with random names, and deletes them in its teardown.
package features
