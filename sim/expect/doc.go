// Package expect evaluates a scenario's expectations on a recorded run.
// Every check reads the run's event log (package record) — what Kueue and
// kube-scheduler decided — and a failure names the workloads and the
// numbers that broke it.
package expect
