// Package record is the event log of a run and what is derived from it.
//
// The engine writes one Event per observation to events.jsonl (simulated and
// wall time) and the decisions among them — admissions, preemptions and
// evictions with their reasons, placements, webhook refusals — to
// decisions.jsonl (simulated time only, in a deterministic order). Build
// turns an event log into a Run: one timeline per workload plus the
// cluster's capacity, which expectations and reports read. Because a Run is
// rebuilt from the log alone, `sim report` recomputes a saved run's reports.
package record
