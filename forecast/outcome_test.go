package forecast

import (
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kueue-sim/kueue-sim/sim/record"
)

const jobName = "research/forecast-0"

func ev(t time.Duration, typ, workload string, f func(*record.Event)) record.Event {
	e := record.Event{T: record.Duration(t), Type: typ, Workload: workload}
	if f != nil {
		f(&e)
	}
	return e
}

func inCQ(cq string) func(*record.Event) {
	return func(e *record.Event) { e.ClusterQueue = cq }
}

func header(cohorts map[string]string) record.Event {
	seed := int64(7)
	return record.Event{Type: record.TypeRun, Scenario: "forecast", Seed: &seed, Cohorts: cohorts}
}

// waited is a run in which the job arrives at 30m in ClusterQueue
// research, research/train-0 ends there at 3h, and Kueue admits the job at
// 3h0m1s, followed by more.
func waited(cohorts map[string]string, more ...record.Event) []record.Event {
	evs := []record.Event{
		header(cohorts),
		ev(0, record.TypeArrived, "research/train-0", inCQ("research")),
		ev(0, record.TypeAdmitted, "research/train-0", inCQ("research")),
		ev(30*time.Minute, record.TypeArrived, jobName, inCQ("research")),
		ev(30*time.Minute, record.TypePending, jobName, func(e *record.Event) { e.Message = "insufficient quota" }),
		ev(3*time.Hour, record.TypeFinished, "research/train-0", func(e *record.Event) { e.Reason = "Succeeded" }),
		ev(3*time.Hour+time.Second, record.TypeAdmitted, jobName, func(e *record.Event) {
			e.ClusterQueue, e.Flavors = "research", map[string]string{"nvidia.com/gpu": "a100", "cpu": "a100"}
		}),
	}
	return append(evs, more...)
}

// finishedIn is a workload of ClusterQueue cq that ends at 3h.
func finishedIn(name, cq string) []record.Event {
	return []record.Event{
		ev(0, record.TypeArrived, name, inCQ(cq)),
		ev(0, record.TypeAdmitted, name, inCQ(cq)),
		ev(3*time.Hour, record.TypeFinished, name, nil),
	}
}

func TestOutcomeAdmittedAfterWait(t *testing.T) {
	got := outcomeOf(record.Build(waited(nil)), jobName)
	want := Outcome{
		Seed:         7,
		Admitted:     true,
		Wait:         2*time.Hour + 30*time.Minute + time.Second,
		WaitSeconds:  9001,
		ClusterQueue: "research",
		Flavors:      map[string]string{"nvidia.com/gpu": "a100", "cpu": "a100"},
		LetInBy:      []string{"research/train-0"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("outcome (-want +got):\n%s", diff)
	}
}

func TestOutcomeOtherClusterQueueNoSharedCohort(t *testing.T) {
	for _, cohorts := range []map[string]string{
		nil,
		{"other": "org"},
		{"research": "org"},
		{"research": "org-a", "other": "org-b"},
	} {
		evs := waited(cohorts, finishedIn("dev/other-0", "other")...)
		got := outcomeOf(record.Build(evs), jobName)
		if want := []string{"research/train-0"}; !slices.Equal(got.LetInBy, want) {
			t.Errorf("LetInBy with cohorts %v: got %v, want %v", cohorts, got.LetInBy, want)
		}
	}
}

func TestOutcomeSameCohort(t *testing.T) {
	evs := waited(map[string]string{"research": "org", "other": "org"}, finishedIn("dev/other-0", "other")...)
	got := outcomeOf(record.Build(evs), jobName)
	if want := []string{"dev/other-0", "research/train-0"}; !slices.Equal(got.LetInBy, want) {
		t.Errorf("LetInBy: got %v, want %v", got.LetInBy, want)
	}
}

func TestOutcomeEndTooEarly(t *testing.T) {
	evs := waited(nil,
		ev(0, record.TypeArrived, "research/early-0", inCQ("research")),
		ev(0, record.TypeAdmitted, "research/early-0", inCQ("research")),
		ev(3*time.Hour-time.Second-time.Millisecond, record.TypeFinished, "research/early-0", nil))
	got := outcomeOf(record.Build(evs), jobName)
	if slices.Contains(got.LetInBy, "research/early-0") {
		t.Errorf("LetInBy: got %v, want no workload that ended over a second before the admission", got.LetInBy)
	}
}

func TestOutcomeEvictedAndDeletedLetIn(t *testing.T) {
	evs := waited(nil,
		ev(0, record.TypeArrived, "research/evicted-0", inCQ("research")),
		ev(0, record.TypeAdmitted, "research/evicted-0", inCQ("research")),
		ev(3*time.Hour+time.Second, record.TypeEvicted, "research/evicted-0", nil),
		ev(0, record.TypeArrived, "research/notebook-0", inCQ("research")),
		ev(0, record.TypeAdmitted, "research/notebook-0", inCQ("research")),
		ev(3*time.Hour, record.TypeDeleted, "research/notebook-0", nil))
	got := outcomeOf(record.Build(evs), jobName)
	if want := []string{"research/evicted-0", "research/notebook-0", "research/train-0"}; !slices.Equal(got.LetInBy, want) {
		t.Errorf("LetInBy: got %v, want %v", got.LetInBy, want)
	}
}

func TestOutcomePreempted(t *testing.T) {
	evs := waited(nil,
		ev(time.Hour, record.TypeArrived, "research/low-0", inCQ("research")),
		ev(time.Hour, record.TypeAdmitted, "research/low-0", inCQ("research")),
		ev(3*time.Hour+time.Second, record.TypePreempted, "research/low-0", func(e *record.Event) { e.Reason = "InClusterQueue" }))
	got := outcomeOf(record.Build(evs), jobName)
	if want := []string{"research/low-0"}; !slices.Equal(got.Preempted, want) {
		t.Errorf("Preempted: got %v, want %v", got.Preempted, want)
	}
	if slices.Contains(got.LetInBy, "research/low-0") {
		t.Errorf("LetInBy: got %v, want the preempted workload in Preempted only", got.LetInBy)
	}
}

func TestOutcomeNeverAdmitted(t *testing.T) {
	evs := []record.Event{
		header(nil),
		ev(30*time.Minute, record.TypeArrived, jobName, inCQ("research")),
		ev(30*time.Minute, record.TypePending, jobName, func(e *record.Event) { e.Message = "first reason" }),
		ev(time.Hour, record.TypePending, jobName, func(e *record.Event) { e.Message = "last reason" }),
		{T: record.Duration(2 * time.Hour), Type: record.TypeEnd},
	}
	got := outcomeOf(record.Build(evs), jobName)
	want := Outcome{Seed: 7, Pending: "last reason"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("outcome (-want +got):\n%s", diff)
	}
}

func TestOutcomeRefused(t *testing.T) {
	evs := []record.Event{
		header(nil),
		ev(30*time.Minute, record.TypeArrived, jobName, inCQ("research")),
		ev(30*time.Minute, record.TypeRefused, jobName, func(e *record.Event) { e.Message = "denied by webhook" }),
	}
	got := outcomeOf(record.Build(evs), jobName)
	if got.Admitted || got.Refused != "denied by webhook" {
		t.Errorf("outcome: got %+v, want refused with the webhook's message", got)
	}
}

func TestOutcomeNotSubmitted(t *testing.T) {
	got := outcomeOf(record.Build(finishedIn("research/train-0", "research")), jobName)
	if got.Admitted || got.Pending == "" {
		t.Errorf("outcome: got %+v, want not admitted with a reason", got)
	}
}

func TestOutcomeAdmittedAtOnce(t *testing.T) {
	evs := []record.Event{
		header(nil),
		ev(0, record.TypeArrived, "research/train-0", inCQ("research")),
		ev(0, record.TypeAdmitted, "research/train-0", inCQ("research")),
		ev(3*time.Hour, record.TypeFinished, "research/train-0", nil),
		ev(3*time.Hour, record.TypeArrived, jobName, inCQ("research")),
		ev(3*time.Hour, record.TypeAdmitted, jobName, inCQ("research")),
	}
	got := outcomeOf(record.Build(evs), jobName)
	if !got.Admitted || got.Wait != 0 || got.WaitSeconds != 0 {
		t.Errorf("outcome: got %+v, want admitted with no wait", got)
	}
	if got.LetInBy != nil {
		t.Errorf("LetInBy: got %v, want none for a job admitted at once", got.LetInBy)
	}
}
