package record

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Build collects PendingCounts events in log order and drops those that
// name no ClusterQueue or carry no counts; the counts are observations,
// never decisions, and a zero count is written, not left out.
func TestBuildCollectsPendingCounts(t *testing.T) {
	evs := []Event{
		{Type: TypeRun, Scenario: "counts"},
		{T: sec(0), Type: TypePendingCounts, ClusterQueue: "b", Counts: &PendingCounts{}},
		{T: sec(0), Type: TypePendingCounts, ClusterQueue: "a", Counts: &PendingCounts{Active: 1}},
		{T: sec(60), Type: TypePendingCounts, ClusterQueue: "a", Counts: &PendingCounts{Inadmissible: 2}},
		{T: sec(60), Type: TypePendingCounts, Counts: &PendingCounts{Active: 9}}, // names nothing: dropped
		{T: sec(90), Type: TypePendingCounts, ClusterQueue: "b"},                 // no counts: dropped
		{T: sec(120), Type: TypeEnd},
	}
	r := Build(evs)
	type brief struct {
		T                    float64
		CQ                   string
		Active, Inadmissible int
	}
	var got []brief
	for _, e := range r.PendingCounts {
		got = append(got, brief{e.T.D().Seconds(), e.ClusterQueue, e.Counts.Active, e.Counts.Inadmissible})
	}
	want := []brief{{0, "b", 0, 0}, {0, "a", 1, 0}, {60, "a", 0, 2}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("pending counts (-want +got):\n%s", diff)
	}
	if IsDecision(TypePendingCounts) {
		t.Error("PendingCounts is a decision; it is an observation of Kueue's gauge")
	}
	var buf bytes.Buffer
	w := NewWriter(&buf)
	if err := w.Write(evs[1]); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if line := buf.String(); !strings.Contains(line, `"counts":{"active":0,"inadmissible":0}`) {
		t.Errorf("written as %s; want both counts, zeros included", line)
	}
	back, err := Read(&buf)
	if err != nil || len(back) != 1 || back[0].Counts == nil || *back[0].Counts != (PendingCounts{}) {
		t.Errorf("read back %+v, %v", back, err)
	}
}
