// Package engine replays a scenario on the embedded control plane on a
// virtual clock.
//
// Simulated time jumps from event to event (arrivals, ends of runs,
// deletions). At each simulated time the engine applies that time's events
// through the real admission path (webhooks, Kueue, kube-scheduler), then
// waits until the control plane is quiet — every in-process work queue
// empty, Kueue with nothing left to try, kube-controller-manager and
// kube-scheduler done with what they were given, no write to etcd for a
// moment — so that results do not depend on machine speed. Everything Kueue
// decides is observed from the API (Workload conditions, pods' nodes), never
// recomputed; observations are stamped with the simulated time.
//
// Kueue orders pending workloads of equal priority by their Workload's
// creation time, which the API server stamps in wall-clock seconds. The
// engine therefore paces creations so that workloads whose order can matter
// (same ClusterQueue or cohort, same priority, pending together) are created
// in distinct wall seconds (see pacing.go); RelaxedPacing turns this off for
// large statistical runs, submits an instant's actions concurrently
// (concurrent.go), settles on a shorter quiet window and deletes finished
// workloads' objects as the run goes (prune.go).
//
// Work per step is proportional to what changed: the observer hands the
// engine the workloads whose state changed (a dirty set), and settle checks
// read an informer-fed index of what kube-scheduler and
// kube-controller-manager still owe (quiet_index.go) rather than listing
// every pod.
package engine
