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
// The numbers themselves — utilization, queue waits, borrowing and
// lending, fairness — come from package metrics, the same code the
// expectations (package expect) judge a run by, so a report and an
// expectation cannot disagree; package metrics' documentation defines
// them. Fairness is Kueue's own: the weighted share Kueue published for
// every ClusterQueue and Cohort (status.fairSharing.weightedShare), as
// the engine observed it, per member over time (shares.csv, a chart) and
// the gaps between members with waiting workloads and the others.
package reports
