package reports

import (
	"sort"

	"github.com/kueue-sim/kueue-sim/sim/expect"
	"github.com/kueue-sim/kueue-sim/sim/metrics"
	"github.com/kueue-sim/kueue-sim/sim/record"
)

// SchemaVersion is the version of report.json's layout. It changes when a
// field is renamed, removed or changes meaning; new fields keep it.
const SchemaVersion = 2

// The report's tables are package metrics' numbers, the ones expectations
// judge too.
type (
	FlavorUsage    = metrics.FlavorUsage
	ClusterQueue   = metrics.ClusterQueue
	QuotaUsage     = metrics.QuotaUsage
	Team           = metrics.Team
	TeamUsage      = metrics.TeamUsage
	WaitStats      = metrics.WaitStats
	CohortFairness = metrics.CohortFairness
	MemberFairness = metrics.MemberFairness
)

// Report is everything the reports say about one run. Times and durations
// are simulated seconds; amounts are in each resource's base unit (GPUs,
// cores, bytes); resource-hours are amount × simulated hours.
type Report struct {
	SchemaVersion int    `json:"schemaVersion"`
	Scenario      string `json:"scenario"`
	Seed          int64  `json:"seed"`
	Pacing        string `json:"pacing,omitempty"`
	// KueueVersion is the release of the Kueue that decided.
	KueueVersion string `json:"kueueVersion,omitempty"`
	// DurationSeconds is the simulated length of the run.
	DurationSeconds float64 `json:"durationSeconds"`
	// Resource is the resource the charts and the summary focus on:
	// nvidia.com/gpu when the cluster has GPUs.
	Resource string `json:"resource"`

	Totals        Totals         `json:"totals"`
	Flavors       []FlavorUsage  `json:"flavors"`
	ClusterQueues []ClusterQueue `json:"clusterQueues"`
	Teams         []Team         `json:"teams"`
	Waits         []WaitStats    `json:"waits"`
	Preemptions   []ReasonCount  `json:"preemptions"`
	Evictions     []ReasonCount  `json:"evictions"`
	Refusals      []Refusal      `json:"refusals"`
	// Fairness is each cohort's balance in Kueue's weighted shares.
	Fairness     []CohortFairness `json:"fairness"`
	Placement    []PoolPlacement  `json:"placement"`
	Why          []Why            `json:"why"`
	Expectations []expect.Result  `json:"expectations"`
	Warnings     []string         `json:"warnings,omitempty"`
	// Changes are the scenario's changes to cluster objects, each as
	// "TIME: Reason Kind name (source)". Quotas and capacity above read
	// the queues as the run started.
	Changes []string              `json:"changes,omitempty"`
	series  *metrics.Timeline     // for the CSV files and charts; not in JSON
	shares  []metrics.ShareSeries // Kueue's weighted shares, for shares.csv and the chart
	waits   []metrics.Wait        // per workload, for waits.csv and the chart
	run     *record.Run           // the source
}

// Totals count workloads and decisions.
type Totals struct {
	Workloads int `json:"workloads"`
	// Admitted counts workloads admitted at least once; Admissions counts
	// admissions (a preempted workload admitted again counts twice).
	Admitted   int `json:"admitted"`
	Admissions int `json:"admissions"`
	Refused    int `json:"refused"`
	// Preempted counts workloads preempted at least once; Preemptions
	// counts preemptions.
	Preempted   int `json:"preempted"`
	Preemptions int `json:"preemptions"`
	Evictions   int `json:"evictions"`
	Finished    int `json:"finished"`
	Failed      int `json:"failed"`
	// PendingAtEnd were waiting for admission when the run ended.
	PendingAtEnd int `json:"pendingAtEnd"`
	// RunningAtEnd held quota when the run ended.
	RunningAtEnd int `json:"runningAtEnd"`
	// OffFlavorPods were placed on nodes without their flavor's labels.
	OffFlavorPods      int `json:"offFlavorPods"`
	ExpectationsFailed int `json:"expectationsFailed"`
}

// Build computes the report of a run. results are the run's expectation
// outcomes (nil when unknown).
func Build(run *record.Run, results []expect.Result) *Report {
	r := &Report{
		SchemaVersion:   SchemaVersion,
		Scenario:        run.Scenario,
		Seed:            run.Seed,
		Pacing:          run.Pacing,
		KueueVersion:    run.KueueVersion,
		DurationSeconds: run.End.Seconds(),
		Resource:        primaryResource(run),
		Expectations:    append([]expect.Result{}, results...),
		run:             run,
	}
	r.series = metrics.NewTimeline(run)
	r.Totals = totals(run)
	r.Flavors = metrics.FlavorUsages(run, r.series)
	r.ClusterQueues = metrics.ClusterQueues(run, r.series)
	r.Teams = metrics.Teams(run, r.series)
	r.waits = metrics.Waits(run)
	r.Waits = metrics.WaitGroups(r.waits)
	r.Preemptions, r.Evictions = reasonCounts(run)
	r.Refusals = refusals(run)
	r.shares = metrics.ShareSeriesOf(run)
	r.Fairness = metrics.Fairness(run, r.series)
	r.Placement = placement(run)
	r.Why = why(run)
	for _, e := range results {
		if !e.Passed {
			r.Totals.ExpectationsFailed++
		}
	}
	if run.Pacing == "relaxed" {
		r.Warnings = append(r.Warnings, "relaxed pacing: Kueue's order among tied workloads followed wall-clock timing, so these numbers vary from run to run; compare several seeds before trusting a difference")
	}
	for _, w := range run.Warnings {
		r.Warnings = append(r.Warnings, w.T.D().String()+": "+w.Message)
	}
	for _, c := range run.Changes {
		r.Changes = append(r.Changes, c.T.D().String()+": "+c.Reason+" "+c.Message)
	}
	return r
}

// primaryResource is nvidia.com/gpu when any flavor has it, else the first
// extended resource, else cpu.
func primaryResource(run *record.Run) string {
	var extended []string
	for _, byRes := range run.Capacity {
		for res := range byRes {
			switch res {
			case "nvidia.com/gpu":
				return res
			case "cpu", "memory", "pods", "ephemeral-storage":
			default:
				extended = append(extended, res)
			}
		}
	}
	if len(extended) > 0 {
		sort.Strings(extended)
		return extended[0]
	}
	return "cpu"
}
