package record

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sort"
	"time"
)

// PacingStrict is the pacing every run has written since relaxed pacing
// (settling on informer events, Kueue breaking ties by wall-clock timing)
// went: the engine settles each simulated instant before the next.
const PacingStrict = "strict"

// Event types.
const (
	// Run opens every log: the scenario, seed and the cluster's capacity.
	TypeRun = "Run"
	// Arrived: the engine submitted the workload.
	TypeArrived = "Arrived"
	// Refused: the API server (a webhook) refused the workload.
	TypeRefused = "Refused"
	// Admitted: Kueue admitted the workload (quota reserved, checks passed).
	TypeAdmitted = "Admitted"
	// Preempted: Kueue preempted the workload (Reason: Kueue's reason).
	TypePreempted = "Preempted"
	// Evicted: Kueue evicted the workload for another reason.
	TypeEvicted = "Evicted"
	// Pending: Kueue's reason for not admitting the workload changed.
	TypePending = "Pending"
	// Placed: kube-scheduler bound one of the workload's pods.
	TypePlaced = "Placed"
	// Running: every pod of the workload runs (raw Workloads: admitted).
	TypeRunning = "Running"
	// Finished: the workload ended (Reason Succeeded or Failed).
	TypeFinished = "Finished"
	// Deleted: the engine deleted a long-running workload.
	TypeDeleted = "Deleted"
	// Share: Kueue published a new status.fairSharing.weightedShare for a
	// ClusterQueue (ClusterQueue set) or a Cohort (Cohort set). Kueue writes
	// that status asynchronously, so a Share event is never a decision.
	TypeShare = "Share"
	// PendingCounts: Kueue's count of a ClusterQueue's pending workloads,
	// active and inadmissible (its kueue_pending_workloads gauge), changed
	// since the last settled instant (ClusterQueue and Counts set). An
	// observation, never a decision.
	TypePendingCounts = "PendingCounts"
	// Changed: a scenario change applied (Reason Created or Replaced) or
	// deleted (Reason Deleted) a cluster object; Message names it and its
	// source.
	TypeChanged = "Changed"
	// Warning: something the engine noticed, e.g. a step that did not settle.
	TypeWarning = "Warning"
	// End closes the log.
	TypeEnd = "End"
)

// decisionTypes are the types written to decisions.jsonl.
var decisionTypes = map[string]int{TypeRefused: 0, TypeAdmitted: 1, TypePreempted: 2, TypeEvicted: 3, TypePlaced: 4}

// IsDecision tells whether an event of this type is a decision.
func IsDecision(typ string) bool { _, ok := decisionTypes[typ]; return ok }

// Event is one observation.
type Event struct {
	// T is the simulated time since the start of the run.
	T Duration `json:"t"`
	// Wall is when it was observed (events.jsonl only).
	Wall *time.Time `json:"wall,omitempty"`
	Type string     `json:"type"`

	Workload     string `json:"workload,omitempty"` // namespace/name of the submitted object
	Stream       string `json:"stream,omitempty"`
	Team         string `json:"team,omitempty"`
	Kind         string `json:"kind,omitempty"`
	ClusterQueue string `json:"clusterQueue,omitempty"`
	// Cohort names the Cohort of a Share event.
	Cohort   string `json:"cohort,omitempty"`
	Priority int32  `json:"priority,omitempty"`
	// Flavors maps resource to the flavor Kueue assigned.
	Flavors map[string]string `json:"flavors,omitempty"`
	// Usage is what the admission takes, per flavor and resource, in the
	// resource's base unit (GPUs, cores, bytes).
	Usage map[string]map[string]float64 `json:"usage,omitempty"`
	// Requests is the workload's total request per resource (Arrived).
	Requests map[string]float64 `json:"requests,omitempty"`
	Pods     int                `json:"pods,omitempty"`

	Pod  string `json:"pod,omitempty"`
	Node string `json:"node,omitempty"` // events.jsonl only: kube-scheduler breaks ties at random
	Pool string `json:"pool,omitempty"`
	// FlavorMatch says whether the pod's node carries its flavor's labels.
	FlavorMatch *bool `json:"flavorMatch,omitempty"`

	Reason  string `json:"reason,omitempty"`
	Message string `json:"message,omitempty"`

	// WeightedShare is Kueue's status.fairSharing.weightedShare (Share):
	// usage above nominal quota over the lendable quota of the cohort, of
	// the dominant resource, divided by the weight, times 1000 and rounded
	// up; 0 while not borrowing; math.MaxInt64 for a weight of 0 that
	// borrows.
	WeightedShare *int64 `json:"weightedShare,omitempty"`

	// Counts is Kueue's pending workloads of the ClusterQueue once the
	// instant settled (PendingCounts).
	Counts *PendingCounts `json:"counts,omitempty"`

	// Run header fields.
	Scenario string `json:"scenario,omitempty"`
	Seed     *int64 `json:"seed,omitempty"`
	// KueueVersion is the release of the Kueue that decided (its Go
	// module version, such as v0.17.0).
	KueueVersion string `json:"kueueVersion,omitempty"`
	// Capacity per flavor and resource (node allocatable).
	Capacity map[string]map[string]float64 `json:"capacity,omitempty"`
	// Quotas per ClusterQueue, flavor and resource (nominal).
	Quotas map[string]map[string]map[string]float64 `json:"quotas,omitempty"`
	// Cohorts maps each ClusterQueue to its cohort.
	Cohorts map[string]string `json:"cohorts,omitempty"`
	// Weights are the ClusterQueues' fair-sharing weights.
	Weights map[string]float64 `json:"weights,omitempty"`
	// CohortParents maps each Cohort with a parent to it (hierarchical
	// cohorts); CohortWeights are the Cohorts' fair-sharing weights.
	CohortParents map[string]string  `json:"cohortParents,omitempty"`
	CohortWeights map[string]float64 `json:"cohortWeights,omitempty"`
	// FairSharing says Kueue's fair sharing was on (cluster.kueue sets
	// fairSharing): only then does Kueue publish weighted shares.
	FairSharing bool `json:"fairSharing,omitempty"`
	// Pacing is PacingStrict for every run kueue-sim makes. A log that
	// says "relaxed" comes from a build in which Kueue's order among tied
	// workloads followed wall-clock timing; reports warn about it.
	Pacing string `json:"pacing,omitempty"`
	// Realtime: the run was paced to the wall clock (sim run --realtime).
	Realtime bool `json:"realtime,omitempty"`
}

// PendingCounts is a ClusterQueue's pending workloads as Kueue's
// kueue_pending_workloads{cluster_queue, status} gauge publishes them:
// Active wait in its admission queue (or are being tried), Inadmissible
// failed an admission attempt and wait for the cluster to change, or
// belong to a ClusterQueue Kueue holds inactive. Both are always written,
// 0 included.
type PendingCounts struct {
	Active       int `json:"active"`
	Inadmissible int `json:"inadmissible"`
}

// Duration marshals as seconds, e.g. 90.5.
type Duration time.Duration

// MarshalJSON writes seconds.
func (d Duration) MarshalJSON() ([]byte, error) {
	return json.Marshal(time.Duration(d).Seconds())
}

// UnmarshalJSON reads seconds.
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s float64
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	*d = Duration(math.Round(s * float64(time.Second)))
	return nil
}

// D is the duration as a time.Duration.
func (d Duration) D() time.Duration { return time.Duration(d) }

// SortStep orders one simulated instant's decisions deterministically: by
// type, then workload, then pod.
func SortStep(evs []Event) {
	sort.SliceStable(evs, func(i, j int) bool {
		a, b := evs[i], evs[j]
		if decisionTypes[a.Type] != decisionTypes[b.Type] {
			return decisionTypes[a.Type] < decisionTypes[b.Type]
		}
		if a.Workload != b.Workload {
			return a.Workload < b.Workload
		}
		if a.Pool != b.Pool {
			return a.Pool < b.Pool
		}
		return a.Pod < b.Pod
	})
}

// Decision strips what is not deterministic from a decision event: wall
// time, the node name (kube-scheduler picks among equally good nodes at
// random; the pool is kept), the pod name (generated by controllers) and
// Kueue's messages, which name UIDs (the reason stays). A webhook's refusal
// message is kept: it is the decision.
func Decision(e Event) Event {
	e.Wall = nil
	e.Node = ""
	e.Pod = ""
	if e.Type != TypeRefused {
		e.Message = ""
	}
	return e
}

// Writer appends events as JSON lines.
type Writer struct {
	w   *bufio.Writer
	enc *json.Encoder
}

// NewWriter writes JSON lines to w.
func NewWriter(w io.Writer) *Writer {
	bw := bufio.NewWriter(w)
	return &Writer{w: bw, enc: json.NewEncoder(bw)}
}

// Write appends one event.
func (w *Writer) Write(e Event) error { return w.enc.Encode(e) }

// Flush writes buffered events through.
func (w *Writer) Flush() error { return w.w.Flush() }

// Read parses a JSON-lines event log.
func Read(r io.Reader) ([]Event, error) {
	var out []Event
	s := bufio.NewScanner(r)
	s.Buffer(make([]byte, 1<<20), 16<<20)
	for line := 1; s.Scan(); line++ {
		if len(s.Bytes()) == 0 {
			continue
		}
		var e Event
		if err := json.Unmarshal(s.Bytes(), &e); err != nil {
			return nil, fmt.Errorf("reading event log line %d: %w", line, err)
		}
		out = append(out, e)
	}
	if err := s.Err(); err != nil {
		return nil, fmt.Errorf("reading event log: %w", err)
	}
	return out, nil
}
