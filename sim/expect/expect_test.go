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

const gpu = "nvidia.com/gpu"

// log writes hand-worked event logs: one flavor (a100) of GPUs, each
// ClusterQueue its own team, times in minutes.
type log struct{ evs []record.Event }

func mins(m float64) record.Duration { return record.Duration(m * float64(time.Minute)) }

func newLog(capacity float64, nominal map[string]float64, cohort string, weights map[string]float64) *log {
	h := record.Event{Type: record.TypeRun, Scenario: "hand", Capacity: map[string]map[string]float64{"a100": {gpu: capacity}},
		Quotas: map[string]map[string]map[string]float64{}, Cohorts: map[string]string{}, Weights: map[string]float64{}, FairSharing: true}
	for cq, n := range nominal {
		h.Quotas[cq] = map[string]map[string]float64{"a100": {gpu: n}}
		h.Cohorts[cq] = cohort
		h.Weights[cq] = 1
		if w, ok := weights[cq]; ok {
			h.Weights[cq] = w
		}
	}
	return &log{evs: []record.Event{h}}
}

func (l *log) add(m float64, typ, cq, name string, f func(*record.Event)) *log {
	e := record.Event{T: mins(m), Type: typ, Workload: cq + "/" + name, Team: cq, Stream: name, Kind: "Job", ClusterQueue: cq}
	if f != nil {
		f(&e)
	}
	l.evs = append(l.evs, e)
	return l
}

func (l *log) arrive(m float64, cq, name string, req map[string]float64) *log {
	return l.add(m, record.TypeArrived, cq, name, func(e *record.Event) { e.Requests = req })
}

func (l *log) admit(m float64, cq, name string, gpus float64) *log {
	return l.add(m, record.TypeAdmitted, cq, name, func(e *record.Event) { e.Usage = map[string]map[string]float64{"a100": {gpu: gpus}} })
}

// run arrives and admits gpus at m.
func (l *log) run(m float64, cq, name string, gpus float64) *log {
	return l.arrive(m, cq, name, map[string]float64{gpu: gpus}).admit(m, cq, name, gpus)
}

func (l *log) preempt(m float64, cq, name string) *log {
	return l.add(m, record.TypePreempted, cq, name, func(e *record.Event) { e.Reason = "InCohortReclamation" })
}

func (l *log) finish(m float64, cq, name string) *log {
	return l.add(m, record.TypeFinished, cq, name, func(e *record.Event) { e.Reason = "Succeeded" })
}

func (l *log) share(m float64, cq string, v int64) *log {
	l.evs = append(l.evs, record.Event{T: mins(m), Type: record.TypeShare, ClusterQueue: cq, WeightedShare: &v})
	return l
}

func (l *log) end(m float64) *record.Run {
	l.evs = append(l.evs, record.Event{T: mins(m), Type: record.TypeEnd})
	return record.Build(l.evs)
}

func gpus(n float64) map[string]float64 { return map[string]float64{gpu: n} }

// starved: team-a borrows team-b's whole quota from 0 (share 500 of the
// cohort's 8 lendable GPUs); team-b's b-1 arrives at 10m and waits, not
// reclaiming, until a-1 ends at 30m.
func starved() *record.Run {
	return newLog(8, map[string]float64{"team-a": 4, "team-b": 4}, "gpus", nil).
		run(0, "team-a", "a-1", 4).run(0, "team-a", "a-2", 4).
		share(0, "team-a", 500).share(0, "team-b", 0).
		arrive(10, "team-b", "b-1", gpus(4)).
		finish(30, "team-a", "a-1").admit(30, "team-b", "b-1", 4).share(30, "team-a", 0).
		end(60)
}

// weighted is the example: four ClusterQueues of 4 GPUs nominal,
// weights 1, 1, 2 and 4, in a 16-GPU cohort; d is idle, so a, b and c
// share its 4 GPUs. Kueue balances them at 5, 5 and 6: 1/16, 1/16 and
// 2/16/2 of the lendable quota, all published as 63 (62.5 rounded up),
// with every one of them still waiting for more.
func weighted(cShare int64) *record.Run {
	l := newLog(16, map[string]float64{"a": 4, "b": 4, "c": 4, "d": 4}, "gpus", map[string]float64{"c": 2, "d": 4})
	for _, q := range []struct {
		cq string
		n  int
	}{{"a", 5}, {"b", 5}, {"c", 6}} {
		for i := 0; i < q.n; i++ {
			l.run(0, q.cq, q.cq+string(rune('0'+i)), 1)
		}
		l.arrive(0, q.cq, q.cq+"-more", gpus(1))
	}
	return l.share(0, "a", 63).share(0, "b", 63).share(0, "c", cShare).share(0, "d", 0).end(60)
}

func fair(tolerance float64, resource string) scenarios.Expectation {
	return scenarios.Expectation{Name: "fair", FairShare: &scenarios.FairShare{Cohort: "gpus", Resource: corev1Resource(resource), Tolerance: tolerance}}
}

func nominal(cq, cohort string, within time.Duration) scenarios.Expectation {
	return scenarios.Expectation{Name: "nominal", NominalGuarantee: &scenarios.NominalGuarantee{ClusterQueue: cq, Cohort: cohort, Within: metav1.Duration{Duration: within}}}
}

func TestEvaluate(t *testing.T) {
	for _, tc := range []struct {
		name   string
		run    *record.Run
		exp    scenarios.Expectation
		passed bool
		says   []string
	}{
		{"fairShare: starved team-b fails with the instant, both queues, shares and waiting workloads", starved(), fair(0.1, gpu), false, []string{
			"at 10m0s ClusterQueue team-b (weight 1) had 1 workload(s) waiting (team-b/b-1) at weighted share 0 while ClusterQueue team-a (weight 1) held 500: 500 apart, more than tolerance 0.1 allows (100, plus 1 for Kueue's rounding",
			"1 such span(s), 20m0s in all, worst gap 500 at 10m0s",
		}},
		{"fairShare: the whole lendable quota tolerates it", starved(), fair(1, ""), true, []string{
			"over 20m0s with workloads waiting in cohort gpus, no member trailed another's weighted share by more than 1000 (tolerance 1 of the lendable quota, plus 1 for Kueue's rounding); largest gap 500 at 10m0s",
		}},
		{"fairShare: Kueue's balance of weights 1, 1, 2, 4 passes at tolerance 0", weighted(63), fair(0, ""), true, []string{
			"over 1h0m0s with workloads waiting in cohort gpus", "no member trailed another",
		}},
		{"fairShare: one unit of Kueue's rounding is forgiven", weighted(62), fair(0, ""), true, []string{"largest gap 1 at 0s"}},
		{"fairShare: a gap of a job's share needs a tolerance that covers it", weighted(31), fair(0.03, ""), false, []string{
			"ClusterQueue c (weight 2) had 1 workload(s) waiting (c/c-more) at weighted share 31 while ClusterQueue a (weight 1) held 63: 32 apart, more than tolerance 0.03 allows (30, plus 1",
		}},
		{"fairShare: waiting CPU-only work does not count for a GPU check", newLog(8, map[string]float64{"a": 4, "b": 4}, "gpus", nil).
			run(0, "a", "big", 8).share(0, "a", 500).share(0, "b", 0).
			arrive(0, "b", "cpu", map[string]float64{"cpu": 2}).end(10), fair(0.1, gpu), true, []string{
			"over 0s with workloads requesting nvidia.com/gpu waiting"}},
		{"fairShare: a share Kueue had not updated yet is left out", newLog(8, map[string]float64{"a": 4, "b": 4}, "gpus", nil).
			run(0, "a", "a-1", 4).run(0, "a", "a-2", 4).share(0, "a", 500).share(0, "b", 0).
			arrive(10, "b", "b-1", gpus(2)).preempt(10, "a", "a-2").admit(10, "b", "b-1", 2).
			arrive(10, "b", "b-2", gpus(4)).share(15, "a", 0).end(20), fair(0.1, gpu), true, []string{
			"for 5m0s a member's published share disagreed with the log's admissions (Kueue had not updated it yet) and was left out"}},
		{"fairShare: no shares in the log", newLog(8, map[string]float64{"a": 4, "b": 4}, "gpus", nil).
			run(0, "a", "big", 8).arrive(1, "b", "x", gpus(1)).end(10), fair(0.1, ""), false, []string{
			"the log holds no weighted share of cohort gpus's members: fair sharing was on, yet no Share event was recorded for them"}},
		{"fairShare: no shares in an older log", func() *record.Run {
			l := newLog(8, map[string]float64{"a": 4, "b": 4}, "gpus", nil)
			l.evs[0].FairSharing = false
			return l.run(0, "a", "big", 8).arrive(1, "b", "x", gpus(1)).end(10)
		}(), fair(0.1, ""), false, []string{
			"Kueue publishes them only with fair sharing on (cluster.kueue.fairSharing), and logs recorded before kueue-sim observed them have none"}},
		{"nominalGuarantee: team-b waited 20m for its own quota", starved(), nominal("team-b", "", 10*time.Minute), false, []string{
			"1 of 1 shortfalls of nominal quota in ClusterQueue team-b lasted longer than 10m0s: ClusterQueue team-b had team-b/b-1 (4 nvidia.com/gpu) waiting from 10m0s to 30m0s (20m0s, more than 10m0s) while it held 0 of its 4 nvidia.com/gpu of nominal quota",
		}},
		{"nominalGuarantee: a cohort checks each of its ClusterQueues", starved(), nominal("", "gpus", 30*time.Minute), true, []string{
			"the ClusterQueues of cohort gpus got back to nominal quota within 30m0s every time (1 shortfalls, longest 20m0s)"}},
		{"nominalGuarantee: a shortfall the end cuts short is not judged", newLog(8, map[string]float64{"a": 4, "b": 4}, "gpus", nil).
			run(0, "a", "big", 8).arrive(50, "b", "x", gpus(1)).end(55), nominal("b", "", 10*time.Minute), true, []string{
			"(1 shortfalls, longest 5m0s); 1 cut short by the end of the run"}},
		{"nominalGuarantee: one still short at the end fails", newLog(8, map[string]float64{"a": 4, "b": 4}, "gpus", nil).
			run(0, "a", "big", 8).arrive(10, "b", "x", gpus(1)).end(60), nominal("b", "", 10*time.Minute), false, []string{
			"from 10m0s to the end of the run, still short (50m0s, more than 10m0s)"}},
		{"nominalGuarantee: reclaimed at once", newLog(8, map[string]float64{"a": 4, "b": 4}, "gpus", nil).
			run(0, "a", "a-1", 4).run(0, "a", "a-2", 4).arrive(10, "b", "b-1", gpus(4)).preempt(10, "a", "a-2").admit(10, "b", "b-1", 4).end(20),
			nominal("", "gpus", 0), true, []string{"never had a waiting workload that fit in its unused nominal quota"}},
		{"queueWait names the longest", starved(), scenarios.Expectation{Name: "w", QueueWait: &scenarios.QueueWait{Team: "team-b", Percentile: 100, Max: metav1.Duration{Duration: 10 * time.Minute}}}, false, []string{
			"p100 queue wait 20m0s over 1 workloads (max allowed 10m0s); longest: team-b/b-1 waited 20m0s"}},
		{"utilization reads the same numbers as the reports", starved(), scenarios.Expectation{Name: "u", Utilization: &scenarios.Utilization{Flavor: "a100", Resource: gpu, Min: 0.9}}, true, []string{
			"nvidia.com/gpu of flavor a100 100.0% used over 1h0m0s (8.0 of 8 nvidia.com/gpu-hours; min 90.0%)"}},
		{"noEviction names the preempted", newLog(8, map[string]float64{"a": 4, "b": 4}, "gpus", nil).
			run(0, "a", "a-1", 8).preempt(5, "a", "a-1").end(10), scenarios.Expectation{Name: "n", NoEviction: &scenarios.NoEviction{}}, false, []string{
			"1 evictions: Job a/a-1 preempted at 5m0s (InCohortReclamation)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := Evaluate(&scenarios.Scenario{Expectations: []scenarios.Expectation{tc.exp}}, tc.run)
			if len(res) != 1 {
				t.Fatalf("%d results", len(res))
			}
			r := res[0]
			if r.Passed != tc.passed || r.Name != tc.exp.Name {
				t.Errorf("passed %v (%s), want %v: %s", r.Passed, r.Name, tc.passed, r.Message)
			}
			for _, s := range tc.says {
				if !strings.Contains(r.Message, s) {
					t.Errorf("message lacks %q:\n%s", s, r.Message)
				}
			}
		})
	}
}

func corev1Resource(s string) corev1.ResourceName { return corev1.ResourceName(s) }
