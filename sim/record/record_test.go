package record

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func sec(s float64) Duration { return Duration(s * float64(time.Second)) }

func i64(v int64) *int64 { return &v }

// hand is a hand-worked log: w-1 admitted at 0, preempted at 60,
// admitted again at 120 and finished at 300; w-2 refused at 10; w-3
// admitted at 30 and deleted at 200; w-4 evicted at 100 and never back;
// Kueue published shares for a ClusterQueue and a Cohort.
func hand() []Event {
	seed := int64(4)
	base := func(t float64, typ, w string) Event {
		return Event{T: sec(t), Type: typ, Workload: "ns/" + w, Stream: "s", Team: "ns", Kind: "Job"}
	}
	with := func(e Event, f func(*Event)) Event {
		if f != nil {
			f(&e)
		}
		return e
	}
	use := map[string]map[string]float64{"a100": {"nvidia.com/gpu": 2}}
	return []Event{
		{Type: TypeRun, Scenario: "hand", Seed: &seed, Pacing: "strict", Quotas: map[string]map[string]map[string]float64{"cq": {"a100": {"nvidia.com/gpu": 4}}},
			Cohorts: map[string]string{"cq": "org"}, Weights: map[string]float64{"cq": 2}, CohortParents: map[string]string{"org": "root"},
			CohortWeights: map[string]float64{"org": 1}, FairSharing: true},
		with(base(0, TypeArrived, "w-1"), func(e *Event) {
			e.ClusterQueue, e.Requests, e.Priority = "cq", map[string]float64{"nvidia.com/gpu": 2}, 5
		}),
		with(base(0, TypeAdmitted, "w-1"), func(e *Event) { e.Usage = use }),
		{T: sec(0), Type: TypeShare, ClusterQueue: "cq", WeightedShare: i64(0)},
		with(base(10, TypeArrived, "w-2"), func(e *Event) { e.ClusterQueue = "cq" }),
		with(base(10, TypeRefused, "w-2"), func(e *Event) { e.Message = "no queue label" }),
		with(base(30, TypeArrived, "w-3"), func(e *Event) { e.ClusterQueue = "cq" }),
		with(base(30, TypeAdmitted, "w-3"), func(e *Event) { e.Usage = use }),
		{T: sec(30), Type: TypeShare, Cohort: "org", WeightedShare: i64(250)},
		with(base(40, TypeArrived, "w-4"), func(e *Event) { e.ClusterQueue = "cq" }),
		with(base(40, TypeAdmitted, "w-4"), func(e *Event) { e.Usage = use }),
		with(base(60, TypePreempted, "w-1"), func(e *Event) { e.Reason = "InClusterQueue" }),
		with(base(70, TypePending, "w-1"), func(e *Event) { e.Reason = "Pending"; e.Message = "waiting" }),
		with(base(100, TypeEvicted, "w-4"), func(e *Event) { e.Reason = "Deactivated" }),
		with(base(120, TypeAdmitted, "w-1"), func(e *Event) { e.Usage = use }),
		{T: sec(150), Type: TypeShare, ClusterQueue: "", Cohort: "", WeightedShare: i64(9)}, // names nothing: dropped
		{T: sec(150), Type: TypeShare, ClusterQueue: "cq"},                                  // no value: dropped
		with(base(200, TypeDeleted, "w-3"), nil),
		with(base(300, TypeFinished, "w-1"), func(e *Event) { e.Reason = "Succeeded" }),
		{T: sec(310), Type: TypeWarning, Reason: "NotSettled", Message: "busy"},
		{T: sec(400), Type: TypeEnd},
	}
}

func TestBuild(t *testing.T) {
	r := Build(hand())
	if r.Scenario != "hand" || r.Seed != 4 || r.Pacing != "strict" || r.End != 400*time.Second || !r.FairSharing ||
		r.CohortParents["org"] != "root" || r.CohortWeights["org"] != 1 || r.Weights["cq"] != 2 {
		t.Errorf("header: %+v", r)
	}
	type wl struct {
		Name, CQ                           string
		Priority                           int32
		Arrived                            float64
		Refused                            bool
		Admissions, Preemptions, Evictions int
		Finished, Deleted, Pending         bool
	}
	var got []wl
	for _, w := range r.Workloads {
		got = append(got, wl{w.Name, w.ClusterQueue, w.Priority, w.Arrived.Seconds(), w.Refused != nil, len(w.Admissions), len(w.Preemptions),
			len(w.Evictions), w.Finished != nil, w.Deleted != nil, w.LastPending != nil})
	}
	want := []wl{
		{"ns/w-1", "cq", 5, 0, false, 2, 1, 0, true, false, true},
		{"ns/w-2", "cq", 0, 10, true, 0, 0, 0, false, false, false},
		{"ns/w-3", "cq", 0, 30, false, 1, 0, 0, false, true, false},
		{"ns/w-4", "cq", 0, 40, false, 1, 0, 1, false, false, false},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("workloads (-want +got):\n%s", diff)
	}
	var shares []string
	for _, e := range r.Shares {
		shares = append(shares, e.ClusterQueue+"|"+e.Cohort+"|"+strconv.FormatInt(*e.WeightedShare, 10))
	}
	if diff := cmp.Diff([]string{"cq||0", "|org|250"}, shares); diff != "" {
		t.Errorf("shares (-want +got):\n%s", diff)
	}
	if len(r.Warnings) != 1 || r.Warnings[0].Reason != "NotSettled" {
		t.Errorf("warnings: %+v", r.Warnings)
	}
}

func TestHoldings(t *testing.T) {
	var got []string
	for _, h := range Build(hand()).Holdings() {
		got = append(got, h.Workload.Name+" "+h.From.String()+"-"+h.To.String())
	}
	want := []string{"ns/w-1 0s-1m0s", "ns/w-1 2m0s-5m0s", "ns/w-3 30s-3m20s", "ns/w-4 40s-1m40s"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("holdings (-want +got):\n%s", diff)
	}
}

// A workload preempted and admitted again at one instant holds quota on
// its second flavor from that instant until it finishes.
func TestHoldingsReadmittedAtThePreemptionsInstant(t *testing.T) {
	ev := func(s float64, typ, flavor string) Event {
		e := Event{T: sec(s), Type: typ, Workload: "ns/low", Stream: "s", Team: "ns", Kind: "Workload"}
		if flavor != "" {
			e.Usage = map[string]map[string]float64{flavor: {"cpu": 5}}
		}
		return e
	}
	r := Build([]Event{
		ev(0, TypeAdmitted, "on-demand"),
		ev(60, TypePreempted, ""),
		ev(60, TypeAdmitted, "spot"),
		ev(660, TypeFinished, ""),
		{T: sec(700), Type: TypeEnd},
	})
	var got []string
	for _, h := range r.Holdings() {
		for flavor := range h.Usage {
			got = append(got, flavor+" "+h.From.String()+"-"+h.To.String())
		}
	}
	want := []string{"on-demand 0s-1m0s", "spot 1m0s-11m0s"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("holdings (-want +got):\n%s", diff)
	}
}

// Share events are observations: never in decisions.jsonl.
func TestDecisions(t *testing.T) {
	for typ, want := range map[string]bool{TypeRefused: true, TypeAdmitted: true, TypePreempted: true, TypeEvicted: true, TypePlaced: true,
		TypeShare: false, TypeArrived: false, TypePending: false, TypeRunning: false, TypeFinished: false, TypeWarning: false, TypeRun: false} {
		if IsDecision(typ) != want {
			t.Errorf("IsDecision(%s) = %v, want %v", typ, !want, want)
		}
	}
	now := time.Now()
	d := Decision(Event{T: sec(5), Wall: &now, Type: TypeAdmitted, Workload: "ns/w", Node: "n-1", Pod: "p-x", Pool: "a100", Message: "UID 123"})
	if d.Wall != nil || d.Node != "" || d.Pod != "" || d.Message != "" || d.Pool != "a100" {
		t.Errorf("Decision kept what is not deterministic: %+v", d)
	}
	if r := Decision(Event{Type: TypeRefused, Message: "no queue label"}); r.Message != "no queue label" {
		t.Errorf("a refusal's message is the decision: %+v", r)
	}
	step := []Event{
		{Type: TypePlaced, Workload: "b", Pool: "x", Pod: "2"}, {Type: TypePlaced, Workload: "b", Pool: "x", Pod: "1"},
		{Type: TypeAdmitted, Workload: "b"}, {Type: TypeAdmitted, Workload: "a"}, {Type: TypeRefused, Workload: "z"},
	}
	SortStep(step)
	var got []string
	for _, e := range step {
		got = append(got, e.Type+" "+e.Workload+e.Pod)
	}
	if diff := cmp.Diff([]string{"Refused z", "Admitted a", "Admitted b", "Placed b1", "Placed b2"}, got); diff != "" {
		t.Errorf("SortStep (-want +got):\n%s", diff)
	}
}

// A log written and read back is the same, times in seconds and a
// weighted share of 0 kept.
func TestWriteRead(t *testing.T) {
	var b bytes.Buffer
	w := NewWriter(&b)
	for _, e := range hand() {
		if err := w.Write(e); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `{"t":0,"type":"Share","clusterQueue":"cq","weightedShare":0}`) ||
		!strings.Contains(b.String(), `{"t":30,"type":"Share","cohort":"org","weightedShare":250}`) {
		t.Errorf("Share events as written:\n%s", b.String())
	}
	back, err := Read(strings.NewReader(b.String() + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(hand(), back); diff != "" {
		t.Errorf("read back (-want +got):\n%s", diff)
	}
	if _, err := Read(strings.NewReader("{\"t\":0}\nnot json\n")); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("a bad line: %v, want an error naming line 2", err)
	}
}
