// Package reports turns a recorded run into numbers and pages a person can
// read: how much of each flavor was used over simulated time, how long each
// team's workloads waited, who borrowed and lent quota, how fair the cohort
// was, where pods landed, and — for every workload still pending or ever
// preempted — Kueue's reason in plain words.
//
// Everything is computed from the run's event log (package record) alone,
// so `sim report events.jsonl` rebuilds the reports of a saved run: the
// numbers are what Kueue and kube-scheduler decided, never a recomputation
// of their logic. Build makes a Report; WriteAll writes it as report.json
// (versioned by SchemaVersion), CSV time series, report.md (short enough
// for a pull-request comment) and report.html (one self-contained page with
// charts drawn by gonum/plot as inline SVG).
//
// Definitions used throughout:
//   - Utilization of a flavor's resource is the quota Kueue had admitted on
//     it, integrated over the run (resource-hours), divided by the flavor's
//     node capacity times the run's simulated length.
//   - Queue wait is the time from arrival to first admission; a workload
//     never admitted waits until the end of the run (and is counted as
//     pending at the end). Workloads refused by a webhook have no wait.
//   - A ClusterQueue borrows what it uses above its nominal quota. It lends
//     what the rest of its cohort borrows out of its unused nominal quota;
//     when several ClusterQueues have unused quota, what the cohort borrows
//     is apportioned to them by their unused amounts.
//   - Fair share: at every moment, the cohort's nominal quota divided by
//     weighted max-min among its ClusterQueues, each capped at its demand
//     (what it holds plus what it waits for). Jain's index is taken over the
//     ClusterQueues with demand, of each one's holding divided by its fair
//     share, averaged over the time during which at least two ClusterQueues
//     had demand and one of them had pending demand.
package reports
