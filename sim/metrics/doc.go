// Package metrics computes, once, the numbers both the expectations
// (package expect) and the reports (package reports) judge a recorded run
// by, so that the two cannot disagree. Everything is derived from the
// run's event log (package record): what Kueue and kube-scheduler decided
// and what Kueue published, never a recomputation of their logic.
//
// NewTimeline cuts a run into segments during which no holding and no
// pending demand changed; the rest reads it:
//   - FlavorUsages: utilization of a flavor's resource is the quota Kueue
//     had admitted on it, integrated over the run (resource-hours), divided
//     by the flavor's node capacity times the run's simulated length.
//   - Waits, WaitGroups, Quantile: queue wait is the time from arrival to
//     first admission; a workload never admitted waits until the end of the
//     run. Workloads refused by a webhook have no wait. Percentiles are
//     gonum's empirical quantiles.
//   - ClusterQueues: a ClusterQueue borrows what it uses above its nominal
//     quota. It lends what the rest of its cohort borrows out of its unused
//     nominal quota; when several ClusterQueues have unused quota, what the
//     cohort borrows is apportioned to them by their unused amounts.
//   - SweepCohort, Fairness: fairness is Kueue's own measure, the weighted
//     share it publishes as status.fairSharing.weightedShare of every
//     ClusterQueue and Cohort (usage above nominal quota over the cohort's
//     lendable quota, of the dominant resource, divided by the weight,
//     ×1000, rounded up; see
//     https://kueue.sigs.k8s.io/docs/concepts/fair_sharing/). Kueue admits
//     from the member with the lowest share and preempts from the highest;
//     the gap of an instant is how far a member with waiting workloads
//     trailed another member's share.
//   - NominalShortfalls: spans during which a ClusterQueue had a waiting
//     workload that fit in its unused nominal quota.
package metrics
