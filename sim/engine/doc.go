// Package engine replays a scenario on the embedded control plane on a
// virtual clock.
//
// Simulated time jumps from event to event (arrivals, ends of runs,
// deletions, Kueue's retries of inadmissible workloads one batch period
// after quota freed: requeue.go, and the times its Workload and
// LocalQueue reconcilers wait for: wake.go). At each simulated time the
// engine applies that time's events
// through the real admission path (webhooks, Kueue, kube-scheduler), then
// waits until the control plane is quiet — every in-process work queue
// empty, Kueue with nothing left to try, kube-controller-manager and
// kube-scheduler done with what they were given, every write etcd has
// taken delivered to the manager's informers (settle.SeenMarks, against
// the embedded control plane's watch of etcd), no new write for a moment —
// so that results do not depend on machine speed. Package settle decides
// when it is; settle.go here wires it to the run. Everything Kueue
// decides is observed from the API (Workload conditions, pods' nodes), never
// recomputed; observations are stamped with the simulated time.
//
// Kueue orders pending workloads of equal priority by their Workload's
// creation time, which kube-apiserver stamps in wall-clock seconds, then
// by random UID. Two things make Kueue order them by simulated time
// instead, with no wall-clock pacing:
//
//   - QueueOrder (order.go), an informer transform on the manager's cache,
//     shows Kueue every Workload as created at its arrival's simulated time
//     plus its place among that instant's arrivals, in nanoseconds;
//   - the scheduler gate (kueuesetup.SchedulerGate) holds Kueue's scheduler
//     while an instant's actions are applied — concurrently, bookkeeping in
//     scenario order (concurrent.go, submit.go, finish.go) — until every
//     arrival is in Kueue's queues and the control plane is quiet; then
//     Kueue schedules the instant as if it all happened at once, and the
//     step ends with the scheduler parked, held between two cycles, so
//     that no cycle of one instant runs into the next (park.go; a
//     --realtime run releases it instead, see there).
//
// One goroutine, the replay loop, owns every workload's state: informer
// handlers only queue what they saw (inbox.go), and the loop drains the
// queue at each settle poll and at the end of each step (observer.go,
// endstep.go). Kueue's weighted shares are read from its scheduler cache
// once a step has settled (shares.go). WithPruning deletes finished
// workloads' objects as the run goes (prune.go).
//
// Each workload kind a stream can submit lives in its own file,
// kind_<kind>.go: the object an arrival submits and whatever the kind does
// otherwise than the default — its pod count, how its run ends, when it
// runs, who completes its evictions — as optional one-method interfaces
// (kind.go) checked with type assertions, as in Kueue's jobframework. A
// templated stream's arrival submits a copy of the stream's own object
// instead, which the kind's fromTemplate makes the arrival's (name,
// namespace, labels, the instant's scheduling gate, what ends it); its pod
// count and requests come from the object's pod sets, as its operator
// runs them (kindWithOperatorPods: KubeRay's submitter and autoscaler).
// Adding a kind (MPIJob, JobSet) is one new file and its line in kinds,
// plus its WorkloadKind and validation in package scenarios (and, if its
// pods end the default way, its case in fakes.PodsOf).
//
// Work per step is proportional to what changed: the observer hands the
// engine the workloads whose state changed (a dirty set), and settle checks
// read an informer-fed index of what kube-scheduler and
// kube-controller-manager still owe (settle.Index) rather than listing
// every pod.
package engine
