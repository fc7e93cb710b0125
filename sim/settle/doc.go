// Package settle decides when the control plane has finished reacting to
// a simulated instant.
//
// The replay applies an instant's actions through the real control plane
// (kube-apiserver, Kueue, kube-scheduler, kube-controller-manager) and
// must not apply the next instant, nor record what happened, before every
// process has done what the instant asked of it; otherwise what it records
// depends on how fast the machine is.
//
// # What quiet means
//
// A poll (wait.poll) checks, in order, from cheapest to costliest:
//
//   - etcd's revision: any write since the last poll makes the control
//     plane busy (EtcdChanging), and the costlier checks are skipped;
//   - the seen marks, where the target can tell (Config.Unseen): a write
//     in etcd that the manager's informers have not delivered yet
//     (InformersBehind). Until every write is delivered, an empty work
//     queue may only not have heard of its next item;
//   - the caller's own check for this wait (Wait's also: the held instant's
//     arrivals Kueue has not queued yet);
//   - the engine's workers (Config.Others: evictions it completes, Kueue's
//     reservations the API does not show yet);
//   - the in-process controllers' work queues and active workers, and
//     Kueue's pending gauge (WorkQueue, ActiveWorkers, KueueTrying), read
//     from three gauges gathered on their own (metrics.go);
//   - what kube-scheduler, the kubelet and kube-controller-manager still
//     owe, from an index informer handlers keep (Index: PodWaits, JobWaits,
//     the apps kinds), so a check costs as much as what changed.
//
// Each busy reason is a Busy: a kind, the object it names and a detail. Its
// String is the message users read in events.jsonl's warnings; its
// reasonKind, without the object, keys the count of busy polls a run
// reports (Settler.Waits).
//
// # Rounds
//
// The control plane is quiet after Timings.Rounds quiet polls in a row,
// Timings.Poll apart: DefaultTimings' three polls 10 ms apart, or, where
// the seen marks say every write reached the informers, SeenTimings' two
// polls 2 ms apart (long enough for an informer to hand an event to every
// handler). A busy poll starts the count over; while the control plane
// stays busy, polls back off towards Timings.BusyPoll so they do not take
// CPU from it. Once quiet, the wait lets what waits for quiet go on —
// Kueue's scheduler paused after an evicting cycle (Config.Resume), then
// the pods held for the instant (Config.Release) — and, if anything did,
// waits for quiet again. A wait that is not quiet after Timings.Timeout
// returns its reason; the engine logs it and goes on.
//
// # The retry rule
//
// Kueue may keep workloads active that it cannot admit: a preemptor whose
// targets are still being evicted, a workload that lost its nomination,
// one whose pending message changes at every try and is rewritten each
// time. Its pending gauge then never empties before simulated time moves.
// retryRule lets a wait move on when only that churn (Busy.kueueChurn)
// holds for Timings.TryGrace, no decision was observed (Config.Progress),
// Kueue ran at least tryAttempts scheduling cycles that admitted nothing
// (Config.Attempts: a starved machine that ran no cycle does not pass for
// a stuck one), and a fresh read of the gauge shows no fewer active
// workloads than when the grace began (a draining queue is progress, and
// starts the grace over). Moving on leaves one note per wait for the event
// log (TakeRetriedNotes).
//
// # Wall time
//
// Simulated time stands still while a wait runs: the wait is for real
// processes doing real work, so it runs on wall time (Config.Clock, the
// real clock unless a test gives a fake one). Quiet is judged from what
// the control plane shows, not from how long it took; wall time only
// spaces the polls and bounds how long a wait looks (Timeout) and how long
// Kueue may retry before the retry rule considers moving on (TryGrace).
package settle
