// Package remote runs a scenario against an existing cluster instead of the
// embedded control plane: `sim run --kubeconfig PATH`.
//
// The cluster brings kube-apiserver, etcd, kube-scheduler,
// kube-controller-manager and its nodes; kueue-sim runs Kueue, the OpenShift
// AI reconciler and webhooks and the fake operators in this process against
// it (cluster.Connect), on the run's virtual clock, so the decisions are
// Kueue's and kube-scheduler's as on the embedded control plane.
//
// A run shares the cluster with whatever else is there, so it keeps to its
// own objects:
//
//   - every team namespace (and hardware profile namespace) is prefixed with
//     the run's prefix, "ks-<run id>-" by default;
//   - everything the run creates carries the label kueue-sim.io/run=<run id>;
//   - a cluster-scoped object of the scenario (ClusterQueue, ResourceFlavor,
//     Cohort, WorkloadPriorityClass, DataScienceCluster) that exists already
//     and is not the run's stops the run instead of being used;
//   - Close deletes the run's namespaces, then its cluster-scoped objects
//     and those the platform's reconciler made for it, then the KWOK nodes it
//     made, and only then stops Kueue, which must remove its finalizers.
//
// The cluster runs the pods. With WithKwokNodes the run makes the scenario's
// node pools as KWOK fake nodes (a cluster made by sim/kwok) and the engine
// ends pods by writing their final status, as a kubelet reports it (see
// engine.ExternalTarget); a cluster with real kubelets would overwrite it.
package remote
