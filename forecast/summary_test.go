package forecast

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// waitedRuns are runs admitted after waits of 0, 1, ... minutes.
func waitedRuns(n int) []Outcome {
	out := make([]Outcome, n)
	for i := range out {
		w := time.Duration(i) * time.Minute
		out[i] = Outcome{Seed: int64(i), Admitted: true, Wait: w, WaitSeconds: w.Seconds(), ClusterQueue: "research"}
	}
	return out
}

func seconds(p *float64) string {
	if p == nil {
		return "nil"
	}
	return (time.Duration(*p) * time.Second).String()
}

func TestSummaryPercentilesNearestRank(t *testing.T) {
	s := summarize(waitedRuns(10))
	if s.P10 == nil || *s.P10 != 0 {
		t.Errorf("P10: got %s, want 0s (the 1st of 10)", seconds(s.P10))
	}
	if s.P50 == nil || *s.P50 != 240 {
		t.Errorf("P50: got %s, want 4m0s (the 5th of 10)", seconds(s.P50))
	}
	if s.P90 == nil || *s.P90 != 480 {
		t.Errorf("P90: got %s, want 8m0s (the 9th of 10)", seconds(s.P90))
	}
	if s.Runs != 10 || s.Admitted != 10 {
		t.Errorf("Runs, Admitted: got %d, %d; want 10, 10", s.Runs, s.Admitted)
	}
}

func TestSummaryNeverAdmittedCountsAsLongest(t *testing.T) {
	runs := waitedRuns(10)
	// The two shortest waits become runs that never admitted the job.
	runs[0] = Outcome{Seed: 0, Pending: "insufficient quota"}
	runs[1] = Outcome{Seed: 1, Pending: "another reason"}
	s := summarize(runs)
	if s.P90 != nil {
		t.Errorf("P90: got %s, want nil (beyond the horizon)", seconds(s.P90))
	}
	if s.P10 == nil || *s.P10 != 120 {
		t.Errorf("P10: got %s, want 2m0s (the 1st of 8 admitted waits 2m..9m)", seconds(s.P10))
	}
	if s.P50 == nil || *s.P50 != 360 {
		t.Errorf("P50: got %s, want 6m0s (the 5th of 8 admitted waits 2m..9m)", seconds(s.P50))
	}
	if s.Admitted != 8 || s.Runs != 10 {
		t.Errorf("Admitted, Runs: got %d, %d; want 8, 10", s.Admitted, s.Runs)
	}
	if s.Pending != "insufficient quota" {
		t.Errorf("Pending: got %q, want the first unadmitted run's reason", s.Pending)
	}
}

func TestSummaryRefused(t *testing.T) {
	s := summarize([]Outcome{{Refused: "denied"}, {Refused: "denied again"}})
	if s.Refused != "denied" || s.Admitted != 0 || s.P50 != nil {
		t.Errorf("summary: got %+v, want the first refusal, none admitted, no P50", s)
	}
}

func TestSummaryAtOnce(t *testing.T) {
	runs := waitedRuns(4)
	runs[2].Wait, runs[2].WaitSeconds = 0, 0
	if s := summarize(runs); s.AtOnce != 2 {
		t.Errorf("AtOnce: got %d, want 2", s.AtOnce)
	}
}

func TestSummaryMostCommonAdmission(t *testing.T) {
	a100 := map[string]string{"nvidia.com/gpu": "a100", "cpu": "default"}
	h100 := map[string]string{"nvidia.com/gpu": "h100"}
	runs := []Outcome{
		{Admitted: true, ClusterQueue: "research", Flavors: h100},
		{Admitted: true, ClusterQueue: "research", Flavors: a100},
		{Admitted: true, ClusterQueue: "research", Flavors: a100},
		{Admitted: true, ClusterQueue: "shared", Flavors: a100},
		{Pending: "waiting"},
	}
	s := summarize(runs)
	if s.ClusterQueue != "research" || s.Flavors != "cpu=default,nvidia.com/gpu=a100" || s.Share != 2 {
		t.Errorf("admission: got %s %s in %d runs, want research cpu=default,nvidia.com/gpu=a100 in 2", s.ClusterQueue, s.Flavors, s.Share)
	}
}

func TestSummaryAdmissionTieIsByName(t *testing.T) {
	runs := []Outcome{
		{Admitted: true, ClusterQueue: "zeta"},
		{Admitted: true, ClusterQueue: "alpha"},
	}
	for range 10 {
		if s := summarize(runs); s.ClusterQueue != "alpha" || s.Share != 1 {
			t.Fatalf("admission: got %s in %d runs, want alpha in 1", s.ClusterQueue, s.Share)
		}
	}
}

func TestSummaryCountsLetInByAndPreempted(t *testing.T) {
	runs := []Outcome{
		{Admitted: true, Wait: time.Minute, LetInBy: []string{"ns/a", "ns/b"}, Preempted: []string{"ns/low"}},
		{Admitted: true, Wait: time.Minute, LetInBy: []string{"ns/b"}},
	}
	s := summarize(runs)
	if diff := cmp.Diff([]Count{{"ns/b", 2}, {"ns/a", 1}}, s.LetInBy); diff != "" {
		t.Errorf("LetInBy (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]Count{{"ns/low", 1}}, s.Preempted); diff != "" {
		t.Errorf("Preempted (-want +got):\n%s", diff)
	}
}

func TestCountsOrder(t *testing.T) {
	got := counts(map[string]int{"ns/c": 1, "ns/b": 3, "ns/a": 1, "ns/d": 3})
	want := []Count{{"ns/b", 3}, {"ns/d", 3}, {"ns/a", 1}, {"ns/c", 1}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("counts (-want +got):\n%s", diff)
	}
}

func TestPercentile(t *testing.T) {
	waits := []float64{10, 20, 30}
	for _, tc := range []struct {
		n, p int
		want *float64
	}{
		{0, 50, nil},
		{3, 50, &waits[1]},
		{3, 90, &waits[2]},
		{3, 1, &waits[0]},
		{3, 0, &waits[0]},
		{4, 90, nil},
		{4, 50, &waits[1]},
	} {
		got := percentile(waits, tc.n, tc.p)
		if (got == nil) != (tc.want == nil) || (got != nil && *got != *tc.want) {
			t.Errorf("percentile(n=%d, p=%d): got %s, want %s", tc.n, tc.p, seconds(got), seconds(tc.want))
		}
	}
}

func TestSummaryNoRuns(t *testing.T) {
	s := summarize(nil)
	if s.Runs != 0 || s.P50 != nil || s.P90 != nil || s.ClusterQueue != "" {
		t.Errorf("summary of no runs: got %+v", s)
	}
}
