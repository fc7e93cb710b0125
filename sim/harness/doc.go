// Package harness is the replay layer's front door: Run replays one
// scenario from start to finish, the way `sim run`, the benchmarks and the
// tests all need it.
//
// A run has three parts, always in this order:
//
//  1. The clock. Run makes the run's engine.VirtualClock (or takes the one
//     WithClock gives, when the caller must stamp something in simulated
//     time before the control plane starts, as bench's Kueue log does). A
//     WithRealtime run arms the clock's wall timers before anything reads
//     it: the control plane's controllers are built on it.
//  2. The target. By default Run starts the embedded control plane
//     (kube-apiserver, etcd, kube-scheduler, kube-controller-manager, and
//     Kueue and the platform in process) with the options the scenario asks
//     for (engine.ClusterOptions), under the run root. WithKubeconfig
//     instead connects Kueue and the platform to an existing cluster
//     (sim/remote), with the scenario's namespaces prefixed so that the run
//     keeps to its own objects.
//  3. The replay. engine.New(...).Run replays the scenario on the target.
//     Run watches the target while it does: a control plane that dies
//     mid-run would leave the engine waiting for a settle that never comes,
//     so its death cancels the replay, and the error Run returns says so
//     (TargetFailedError).
//
// When the replay ends, Run stops the target whatever happened: the
// embedded control plane stops and its run folder goes; on an existing
// cluster the run's namespaces, queues and KWOK nodes are deleted, or,
// WithKeep, left for a later `sim import cluster`. A failure to stop does
// not undo a replay that completed, so it is Result.StopErr rather than
// Run's error.
//
// WithControlPlane gives a caller the control plane around the replay: the
// benchmarks read kube-apiserver's and Kueue's counters and start profiles
// before it and read them again after it; the replay-cluster test watches
// the Events recorded in process and inspects the API once the replay has
// ended, before the control plane stops.
//
// Options that belong to one target only (WithKwokNodes,
// WithNamespacePrefix and WithKeep to an existing cluster, WithSlowKueue
// to the embedded control plane) are checked before anything starts; a
// conflict is a *ConflictError inside an *InvalidError, as is a scenario
// the control plane cannot be configured for or a kubeconfig that cannot be
// read: IsInvalid tells input errors (exit code 2 in `sim run`) from
// failures of the run.
//
// The engine options Run gives are the caller's, and only those: the
// same scenario, seed and options replay to the same decisions whichever
// front end calls Run.
package harness
