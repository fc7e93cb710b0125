package expect

import (
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kueue-sim/kueue-sim/scenarios"
	"github.com/kueue-sim/kueue-sim/sim/record"
)

// wlog writes hand-worked logs of named workloads in namespace ns, times
// in minutes; the stream is the name without its index.
type wlog struct{ evs []record.Event }

func (l *wlog) add(m float64, typ, name string, f func(*record.Event)) *wlog {
	e := record.Event{T: mins(m), Type: typ, Workload: "ns/" + name, Stream: name[:strings.LastIndex(name, "-")], Team: "ns", Kind: "Workload"}
	if f != nil {
		f(&e)
	}
	l.evs = append(l.evs, e)
	return l
}

func (l *wlog) arrive(m float64, name string) *wlog { return l.add(m, record.TypeArrived, name, nil) }

// admit admits 5 cpu of name on flavor by ClusterQueue cq.
func (l *wlog) admit(m float64, name, cq, flavor string) *wlog {
	return l.add(m, record.TypeAdmitted, name, func(e *record.Event) {
		e.ClusterQueue, e.Flavors, e.Usage = cq, map[string]string{"cpu": flavor}, map[string]map[string]float64{flavor: {"cpu": 5}}
	})
}

func (l *wlog) reason(m float64, typ, name, reason string) *wlog {
	return l.add(m, typ, name, func(e *record.Event) { e.Reason = reason })
}

func (l *wlog) pending(m float64, name, msg string) *wlog {
	return l.add(m, record.TypePending, name, func(e *record.Event) { e.Reason, e.Message = "Pending", msg })
}

func (l *wlog) end(m float64) *record.Run {
	l.evs = append(l.evs, record.Event{T: mins(m), Type: record.TypeEnd})
	return record.Build(l.evs)
}

// borrowing is preemption_test.go's "should allow preempting workloads
// while borrowing": low-0 borrows 5 cpu of flavor one, is preempted at 1m
// (InCohortReclaimWhileBorrowing) and admitted again on fallback at the
// same instant; high-0 takes one from 1m; wait-0 waits from 0 to 10m;
// three of stream b arrive at 2m, b-2 is refused.
func borrowing() *record.Run {
	return (&wlog{}).
		arrive(0, "low-0").admit(0, "low-0", "best-effort", "one").
		arrive(0, "wait-0").pending(0, "wait-0", "couldn't assign flavors to pod set main: insufficient unused quota for cpu in flavor one, 5 more needed").
		arrive(1, "high-0").reason(1, record.TypePreempted, "low-0", "InCohortReclaimWhileBorrowing").
		admit(1, "low-0", "best-effort", "fallback").admit(1, "high-0", "standard", "one").
		arrive(2, "b-0").arrive(2, "b-1").arrive(2, "b-2").reason(2, record.TypeRefused, "b-2", "").
		reason(3, record.TypeEvicted, "b-0", "DeactivatedDueToRequeuingLimitExceeded").
		admit(10, "wait-0", "best-effort", "one").
		reason(11, record.TypeFinished, "low-0", "Succeeded").
		end(20)
}

func i32(n int32) *int32 { return &n }

func at(m float64) *metav1.Duration {
	return &metav1.Duration{Duration: time.Duration(m * float64(time.Minute))}
}

func yes(b bool) *bool { return &b }

func on(resource, flavor string) map[corev1.ResourceName]string {
	return map[corev1.ResourceName]string{corev1.ResourceName(resource): flavor}
}

func TestWorkloadExpectation(t *testing.T) {
	for _, tc := range []struct {
		name   string
		x      scenarios.WorkloadExpectation
		passed bool
		says   string
	}{
		{"admittedOn reads the latest admission", scenarios.WorkloadExpectation{Stream: "low", AdmittedOn: on("cpu", "fallback")}, true,
			"workload low-0 was admitted on cpu=fallback at 1m0s (2nd admission)"},
		{"admittedOn names the flavor seen and the one wanted", scenarios.WorkloadExpectation{Stream: "low", AdmittedOn: on("cpu", "one")}, false,
			"workload low-0 was admitted on cpu=fallback at 1m0s (2nd admission), want on cpu=one"},
		{"admission picks the Nth", scenarios.WorkloadExpectation{Stream: "low", Admission: i32(1), AdmittedOn: on("cpu", "one"), ClusterQueue: "best-effort"}, true,
			"workload low-0 was admitted by ClusterQueue best-effort on cpu=one at 0s (1st admission)"},
		{"clusterQueue wrong", scenarios.WorkloadExpectation{Stream: "high", ClusterQueue: "best-effort"}, false,
			"workload high-0 was admitted by ClusterQueue standard at 1m0s (1st admission), want by ClusterQueue best-effort"},
		{"an admission it never had", scenarios.WorkloadExpectation{Stream: "low", Admission: i32(3), AdmittedOn: on("cpu", "one")}, false,
			"workload low-0 has no 3rd admission (admitted 2 times), want on cpu=one"},
		{"admittedOn of a workload never admitted says what Kueue said", scenarios.WorkloadExpectation{Stream: "b", Index: i32(1), AdmittedOn: on("cpu", "one")}, false,
			"workload b-1 was never admitted, want on cpu=one"},
		{"admittedAt picks the admission held then", scenarios.WorkloadExpectation{Stream: "low", AdmittedAt: at(0.5), AdmittedOn: on("cpu", "one")}, true,
			"workload low-0 was admitted on cpu=one at 0s (1st admission); held its 1st admission at 30s (since 0s)"},
		{"preempted and admitted again at one instant holds the second admission", scenarios.WorkloadExpectation{Stream: "low", AdmittedAt: at(1), AdmittedOn: on("cpu", "fallback")}, true,
			"held its 2nd admission at 1m0s (since 1m0s)"},
		{"admittedAt a time it waited", scenarios.WorkloadExpectation{Stream: "wait", AdmittedAt: at(5)}, false,
			"workload wait-0 was pending at 5m0s (since 0s), want admitted then"},
		{"admittedOn at a time it held no admission", scenarios.WorkloadExpectation{Stream: "wait", AdmittedAt: at(5), AdmittedOn: on("cpu", "one")}, false,
			"workload wait-0 held no admission at 5m0s, want on cpu=one; was pending at 5m0s (since 0s), want admitted then"},
		{"pendingAt while it waits", scenarios.WorkloadExpectation{Stream: "wait", PendingAt: at(9.5)}, true,
			"workload wait-0 was pending at 9m30s (since 0s)"},
		{"pendingAt the instant it is admitted", scenarios.WorkloadExpectation{Stream: "wait", PendingAt: at(10)}, false,
			"workload wait-0 held its 1st admission at 10m0s (since 10m0s), want pending then"},
		{"pendingAt before it arrived", scenarios.WorkloadExpectation{Stream: "high", PendingAt: at(0)}, false,
			"workload high-0 had not arrived at 0s (it arrived at 1m0s), want pending then"},
		{"pendingAt once refused", scenarios.WorkloadExpectation{Stream: "b", Index: i32(2), PendingAt: at(5)}, false,
			"workload b-2 had been refused by the webhook at 2m0s, want pending then"},
		{"pendingAt once finished", scenarios.WorkloadExpectation{Stream: "low", PendingAt: at(12)}, false,
			"workload low-0 had finished at 11m0s (Succeeded), want pending then"},
		{"pendingAt after the run", scenarios.WorkloadExpectation{Stream: "wait", PendingAt: at(30)}, false,
			"workload wait-0 cannot be judged at 30m0s: the run ended at 20m0s, want pending then"},
		{"admittedBy reads the first admission", scenarios.WorkloadExpectation{Stream: "wait", AdmittedBy: at(5)}, false,
			"workload wait-0 was admitted at 10m0s (1st admission), want admitted by 5m0s"},
		{"admittedBy with admission reads the Nth", scenarios.WorkloadExpectation{Stream: "low", Admission: i32(2), AdmittedBy: at(1)}, true,
			"workload low-0 was admitted at 1m0s (2nd admission)"},
		{"admitted: true of one never admitted", scenarios.WorkloadExpectation{Stream: "b", Index: i32(1), Admitted: yes(true)}, false,
			"workload b-1 was never admitted, want admitted"},
		{"admitted: false gives Kueue's last word", scenarios.WorkloadExpectation{Stream: "wait", Admitted: yes(false)}, false,
			"workload wait-0 was admitted 1 time, first at 10m0s, want never admitted"},
		{"admitted: false of a refused workload", scenarios.WorkloadExpectation{Stream: "b", Index: i32(2), Admitted: yes(false)}, true,
			"workload b-2 was never admitted (refused by the webhook at 2m0s)"},
		{"preempted for the reason wanted", scenarios.WorkloadExpectation{Stream: "low", Preempted: &scenarios.ReasonCount{Reason: "InCohortReclaimWhileBorrowing", Count: i32(1)}}, true,
			"workload low-0 was preempted 1 time (InCohortReclaimWhileBorrowing at 1m0s)"},
		{"preempted for another reason", scenarios.WorkloadExpectation{Stream: "low", Preempted: &scenarios.ReasonCount{Reason: "InClusterQueue"}}, false,
			"workload low-0 was preempted 1 time (InCohortReclaimWhileBorrowing at 1m0s), want preempted for reason InClusterQueue"},
		{"preempted count 0", scenarios.WorkloadExpectation{Stream: "high", Preempted: &scenarios.ReasonCount{Count: i32(0)}}, true,
			"workload high-0 was never preempted"},
		{"evicted: Deactivated covers a deactivation's cause", scenarios.WorkloadExpectation{Stream: "b", Index: i32(0), Evicted: &scenarios.ReasonCount{Reason: "Deactivated"}}, true,
			"workload b-0 was evicted 1 time (DeactivatedDueToRequeuingLimitExceeded at 3m0s)"},
		{"evicted when it never was", scenarios.WorkloadExpectation{Stream: "low", Evicted: &scenarios.ReasonCount{Reason: "PodsReadyTimeout", Count: i32(1)}}, false,
			"workload low-0 was never evicted, want evicted 1 time for reason PodsReadyTimeout"},
		{"admissions", scenarios.WorkloadExpectation{Stream: "low", Admissions: i32(1)}, false,
			"workload low-0 was admitted 2 times (at 0s, 1m0s), want 1 time"},
		{"finished", scenarios.WorkloadExpectation{Stream: "low", Finished: yes(true)}, true,
			"workload low-0 finished at 11m0s (Succeeded)"},
		{"not finished", scenarios.WorkloadExpectation{Stream: "wait", Finished: yes(true)}, false,
			"workload wait-0 had not finished when the run ended at 20m0s, want finished"},
		{"every check set must hold", scenarios.WorkloadExpectation{Stream: "low", Admissions: i32(2), Finished: yes(false)}, false,
			"workload low-0 was admitted 2 times (at 0s, 1m0s); finished at 11m0s (Succeeded), want not finished"},
		{"an index past the run's arrivals", scenarios.WorkloadExpectation{Stream: "b", Index: i32(5), Admitted: yes(true)}, false,
			"workload b-5 is not in the run, which ended at 20m0s before it arrived: it holds 3 of stream b's workloads (b-0, b-1, b-2)"},
		{"a stream not in the run", scenarios.WorkloadExpectation{Stream: "other", Admitted: yes(true)}, false,
			"workload other-0 is not in the run: no workload of stream other is"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			x := tc.x
			res := Evaluate(&scenarios.Scenario{Expectations: []scenarios.Expectation{{Name: "w", Workload: &x}}}, borrowing())
			if len(res) != 1 {
				t.Fatalf("%d results", len(res))
			}
			r := res[0]
			if r.Passed != tc.passed || r.Check != "workload" {
				t.Errorf("passed %v (%s), want %v: %s", r.Passed, r.Check, tc.passed, r.Message)
			}
			if !strings.Contains(r.Message, tc.says) {
				t.Errorf("message lacks %q:\n%s", tc.says, r.Message)
			}
		})
	}
}

// Kueue's last word on a workload it never admitted is in the message.
func TestWorkloadNeverAdmittedSaysWhy(t *testing.T) {
	run := (&wlog{}).arrive(0, "wait-0").pending(0, "wait-0", "insufficient unused quota for cpu in flavor one, 5 more needed").end(5)
	x := scenarios.WorkloadExpectation{Stream: "wait", Admitted: yes(true)}
	r := Evaluate(&scenarios.Scenario{Expectations: []scenarios.Expectation{{Name: "w", Workload: &x}}}, run)[0]
	want := "workload wait-0 was never admitted (Kueue at 0s: insufficient unused quota for cpu in flavor one, 5 more needed), want admitted"
	if r.Passed || r.Message != want {
		t.Errorf("passed %v: %s\nwant %s", r.Passed, r.Message, want)
	}
}

// A log without Flavors (hand-made, or older) gives each resource the
// flavor its usage names.
func TestWorkloadFlavorsFromUsage(t *testing.T) {
	run := (&wlog{}).arrive(0, "low-0").add(0, record.TypeAdmitted, "low-0", func(e *record.Event) {
		e.Usage = map[string]map[string]float64{"spot": {"cpu": 5}}
	}).end(5)
	x := scenarios.WorkloadExpectation{Stream: "low", AdmittedOn: on("cpu", "on-demand")}
	r := Evaluate(&scenarios.Scenario{Expectations: []scenarios.Expectation{{Name: "w", Workload: &x}}}, run)[0]
	want := "workload low-0 was admitted on cpu=spot at 0s (1st admission), want on cpu=on-demand"
	if r.Passed || r.Message != want {
		t.Errorf("passed %v: %s\nwant %s", r.Passed, r.Message, want)
	}
}

func TestOrdinal(t *testing.T) {
	for n, want := range map[int]string{1: "1st", 2: "2nd", 3: "3rd", 4: "4th", 11: "11th", 12: "12th", 13: "13th", 21: "21st", 102: "102nd", 111: "111th"} {
		if got := ordinal(n); got != want {
			t.Errorf("ordinal(%d) = %s, want %s", n, got, want)
		}
	}
}
