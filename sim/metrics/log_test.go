package metrics

import (
	"time"

	"github.com/kueue-sim/kueue-sim/sim/record"
)

// gpu is the resource of the hand-worked logs.
const gpu = "nvidia.com/gpu"

// logBuilder writes hand-worked event logs: one flavor (a100) of GPUs,
// each ClusterQueue its own team, times in seconds.
type logBuilder struct{ evs []record.Event }

func sec(s float64) record.Duration { return record.Duration(s * float64(time.Second)) }

// newLog opens a log with capacity GPUs of a100 and each ClusterQueue's
// nominal GPUs and cohort.
func newLog(capacity float64, nominal map[string]float64, cohorts map[string]string) *logBuilder {
	h := record.Event{Type: record.TypeRun, Scenario: "hand", Capacity: map[string]map[string]float64{"a100": {gpu: capacity}},
		Quotas: map[string]map[string]map[string]float64{}, Cohorts: map[string]string{}, Weights: map[string]float64{}, FairSharing: true}
	for cq, n := range nominal {
		h.Quotas[cq] = map[string]map[string]float64{"a100": {gpu: n}}
		h.Cohorts[cq] = cohorts[cq]
		h.Weights[cq] = 1
	}
	return &logBuilder{evs: []record.Event{h}}
}

func (l *logBuilder) header() *record.Event { return &l.evs[0] }

func (l *logBuilder) add(t float64, typ, cq, name string, f func(*record.Event)) *logBuilder {
	e := record.Event{T: sec(t), Type: typ, Workload: cq + "/" + name, Team: cq, Stream: name, Kind: "Workload", ClusterQueue: cq}
	if f != nil {
		f(&e)
	}
	l.evs = append(l.evs, e)
	return l
}

func (l *logBuilder) arrive(t float64, cq, name string, gpus float64) *logBuilder {
	return l.add(t, record.TypeArrived, cq, name, func(e *record.Event) { e.Requests = map[string]float64{gpu: gpus} })
}

func (l *logBuilder) arriveCPU(t float64, cq, name string, cores float64) *logBuilder {
	return l.add(t, record.TypeArrived, cq, name, func(e *record.Event) { e.Requests = map[string]float64{"cpu": cores} })
}

func (l *logBuilder) admit(t float64, cq, name string, gpus float64) *logBuilder {
	return l.add(t, record.TypeAdmitted, cq, name, func(e *record.Event) {
		e.Usage = map[string]map[string]float64{"a100": {gpu: gpus}}
	})
}

func (l *logBuilder) preempt(t float64, cq, name string) *logBuilder {
	return l.add(t, record.TypePreempted, cq, name, func(e *record.Event) { e.Reason = "InCohortReclamation"; e.ClusterQueue = "" })
}

func (l *logBuilder) finish(t float64, cq, name string) *logBuilder {
	return l.add(t, record.TypeFinished, cq, name, func(e *record.Event) { e.Reason = "Succeeded"; e.ClusterQueue = "" })
}

func (l *logBuilder) refuse(t float64, cq, name string) *logBuilder {
	return l.add(t, record.TypeRefused, cq, name, func(e *record.Event) { e.Message = "no"; e.ClusterQueue = "" })
}

func (l *logBuilder) share(t float64, cq string, v int64) *logBuilder {
	l.evs = append(l.evs, record.Event{T: sec(t), Type: record.TypeShare, ClusterQueue: cq, WeightedShare: &v})
	return l
}

func (l *logBuilder) cohortShare(t float64, cohort string, v int64) *logBuilder {
	l.evs = append(l.evs, record.Event{T: sec(t), Type: record.TypeShare, Cohort: cohort, WeightedShare: &v})
	return l
}

func (l *logBuilder) end(t float64) *record.Run {
	l.evs = append(l.evs, record.Event{T: sec(t), Type: record.TypeEnd})
	return record.Build(l.evs)
}

// starved: team-a borrows team-b's whole quota from 0 (share 500 of a
// lendable 8 GPUs) and team-b's b-1, arriving at 600, waits without
// preemption until a-1 ends at 1800.
func starved() *record.Run {
	return newLog(8, map[string]float64{"team-a": 4, "team-b": 4}, map[string]string{"team-a": "gpus", "team-b": "gpus"}).
		arrive(0, "team-a", "a-1", 4).admit(0, "team-a", "a-1", 4).
		arrive(0, "team-a", "a-2", 4).admit(0, "team-a", "a-2", 4).
		share(0, "team-a", 500).share(0, "team-b", 0).
		arrive(600, "team-b", "b-1", 4).
		finish(1800, "team-a", "a-1").admit(1800, "team-b", "b-1", 4).share(1800, "team-a", 0).
		end(3600)
}

// reclaimedLate: as starved, but Kueue reclaims at once (b-1 admitted at
// 600, a-2 preempted and waiting to the end) and the ClusterQueue status
// showing team-a back at 0 is observed only at the next step, 900.
func reclaimedLate() *record.Run {
	return newLog(8, map[string]float64{"team-a": 4, "team-b": 4}, map[string]string{"team-a": "gpus", "team-b": "gpus"}).
		arrive(0, "team-a", "a-1", 4).admit(0, "team-a", "a-1", 4).
		arrive(0, "team-a", "a-2", 4).admit(0, "team-a", "a-2", 4).
		share(0, "team-a", 500).share(0, "team-b", 0).
		arrive(600, "team-b", "b-1", 4).preempt(600, "team-a", "a-2").admit(600, "team-b", "b-1", 4).
		arrive(900, "team-b", "b-2", 1).share(900, "team-a", 0).
		end(1200)
}
