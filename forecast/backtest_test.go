package forecast

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	"github.com/kueue-sim/kueue-sim/importer/kube"
	"github.com/kueue-sim/kueue-sim/scenarios"
	"github.com/kueue-sim/kueue-sim/sim/record"
)

// backtestScenario has two teams in a cohort: research submits raw
// Workloads of 2 GPUs, prod Jobs of one 1-GPU pod.
const backtestScenario = `apiVersion: kueue-sim/v1alpha1
kind: Scenario
name: backtest
seed: 3
cluster:
  nodePools:
  - name: a100
    count: 2
    allocatable: {cpu: "16", memory: 64Gi, nvidia.com/gpu: "4"}
queues:
  resourceFlavors: [{name: a100}]
  cohorts: [{name: gpus}]
  clusterQueues:
  - name: research
    cohort: gpus
    resourceGroups:
    - flavors:
      - name: a100
        resources: {cpu: {nominal: "16"}, memory: {nominal: 64Gi}, nvidia.com/gpu: {nominal: "4"}}
  - name: prod
    cohort: gpus
    resourceGroups:
    - flavors:
      - name: a100
        resources: {cpu: {nominal: "16"}, memory: {nominal: 64Gi}, nvidia.com/gpu: {nominal: "4"}}
teams:
- name: research
  localQueues: [{name: gpu, clusterQueue: research}]
- name: prod
  localQueues: [{name: gpu, clusterQueue: prod}]
workloads:
- name: train
  team: research
  kind: Workload
  count: 10
  arrival: {every: 10m}
  duration: {lognormal: {median: 30m, sigma: 0.6}}
  requests: {cpu: "2", memory: 8Gi, nvidia.com/gpu: "2"}
  queue: gpu
- name: serve
  team: prod
  kind: Job
  count: 10
  arrival: {every: 10m, start: 5m}
  duration: {lognormal: {median: 30m, sigma: 0.6}}
  requests: {cpu: "1", memory: 4Gi, nvidia.com/gpu: "1"}
  queue: gpu
`

func writeBacktestScenario(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "backtest.yaml")
	if err := os.WriteFile(path, []byte(backtestScenario), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// recorded is one workload of a fake recorded run; admitted and finished
// are -1 for never.
type recorded struct {
	name, stream, team       string
	arrived, admitted, ended time.Duration
	preempted                time.Duration
}

// recordedRun is a recorded run of backtestScenario: train-i arrives at
// i*10m, serve-i at i*10m+5m; each waits i minutes and runs 30m. serve-9
// is never admitted.
func recordedRun() []recorded {
	var out []recorded
	for i := 0; i < 10; i++ {
		for _, st := range []struct {
			name, team string
			offset     time.Duration
		}{{"train", "research", 0}, {"serve", "prod", 5 * time.Minute}} {
			at := time.Duration(i)*10*time.Minute + st.offset
			adm := at + time.Duration(i)*time.Minute
			w := recorded{name: fmt.Sprintf("%s/%s-%d", st.team, st.name, i), stream: st.name, team: st.team,
				arrived: at, admitted: adm, ended: adm + 30*time.Minute, preempted: -1}
			if w.name == "prod/serve-9" {
				w.admitted, w.ended = -1, -1
			}
			out = append(out, w)
		}
	}
	return out
}

// events is the log of a run of ws ending at end.
func events(seed int64, ws []recorded, end time.Duration) []record.Event {
	evs := []record.Event{{Type: record.TypeRun, Scenario: "backtest", Seed: &seed, KueueVersion: "v0.19.2"}}
	gpu := map[string]string{"nvidia.com/gpu": "a100", "cpu": "a100", "memory": "a100"}
	for _, w := range ws {
		cq := w.team
		evs = append(evs, record.Event{T: record.Duration(w.arrived), Type: record.TypeArrived, Workload: w.name, Stream: w.stream, Team: w.team, ClusterQueue: cq})
		if w.admitted >= 0 {
			evs = append(evs, record.Event{T: record.Duration(w.admitted), Type: record.TypeAdmitted, Workload: w.name, Stream: w.stream, Team: w.team, ClusterQueue: cq, Flavors: gpu})
		}
		if w.preempted >= 0 {
			evs = append(evs, record.Event{T: record.Duration(w.preempted), Type: record.TypePreempted, Workload: w.name, Stream: w.stream, Team: w.team, ClusterQueue: cq})
		}
		if w.ended >= 0 {
			evs = append(evs, record.Event{T: record.Duration(w.ended), Type: record.TypeFinished, Workload: w.name, Stream: w.stream, Team: w.team, Reason: "Succeeded"})
		}
	}
	return append(evs, record.Event{T: record.Duration(end), Type: record.TypeEnd})
}

func writeEvents(dir string, evs []record.Event) error {
	fh, err := os.Create(filepath.Join(dir, EventsFile))
	if err != nil {
		return err
	}
	defer fh.Close()
	w := record.NewWriter(fh)
	for _, e := range evs {
		if err := w.Write(e); err != nil {
			return err
		}
	}
	return w.Flush()
}

// fakeBacktest replays the recorded scenario as recordedRun and every
// forecast's scenario with its job admitted wait after its arrival.
type fakeBacktest struct {
	t        *testing.T
	recorded string
	wait     time.Duration
	mu       sync.Mutex
	// forecasts are the forecasts' scenarios as loaded; seeds the
	// recorded run's seeds.
	forecasts []*scenarios.Scenario
	seeds     []int64
}

func (f *fakeBacktest) replay(_ context.Context, scenario string, seed int64, dir string) error {
	if scenario == f.recorded {
		f.mu.Lock()
		f.seeds = append(f.seeds, seed)
		f.mu.Unlock()
		return writeEvents(dir, events(seed, recordedRun(), 12*time.Hour))
	}
	s, err := scenarios.LoadFile(scenario)
	if err != nil {
		f.t.Errorf("the forecast's scenario %s does not load: %v", scenario, err)
		return err
	}
	f.mu.Lock()
	f.forecasts = append(f.forecasts, s)
	f.mu.Unlock()
	job := s.Workloads[len(s.Workloads)-1]
	at := job.Arrival.At[0].Duration
	name := job.Team + "/" + scenarios.ArrivalName(job.Name, 0)
	return writeEvents(dir, events(seed, []recorded{{name: name, stream: job.Name, team: job.Team,
		arrived: at, admitted: at + f.wait, ended: at + f.wait + time.Hour, preempted: -1}}, at+f.wait+time.Hour))
}

func TestPickTargetsEvenlyInTheMiddle(t *testing.T) {
	var ws []recorded
	for i := 0; i < 20; i++ {
		ws = append(ws, recorded{name: fmt.Sprintf("research/train-%d", i), stream: "train", team: "research",
			arrived: time.Duration(i) * time.Minute, admitted: -1, ended: -1, preempted: -1})
	}
	run := record.Build(events(1, ws, time.Hour))
	run.Workloads[0].Refused = &record.Event{} // train-0: never queued, never picked
	names := func(k int) []string {
		var out []string
		for _, w := range pickTargets(run, k) {
			out = append(out, strings.TrimPrefix(w.Name, "research/train-"))
		}
		return out
	}
	// 19 arrivals: the first 3 and last 3 are left out, 13 remain
	// (train-4 to train-16); 3 are picked at the middles of thirds.
	if got, want := names(3), []string{"6", "10", "14"}; !slices.Equal(got, want) {
		t.Errorf("3 targets: got train-%v, want train-%v", got, want)
	}
	if got := names(100); len(got) != 13 || got[0] != "4" || got[12] != "16" {
		t.Errorf("100 targets: got train-%v, want the 13 from train-4 to train-16", got)
	}
	if got := names(1); !slices.Equal(got, []string{"10"}) {
		t.Errorf("1 target: got train-%v, want the middle one, train-10", got)
	}
}

func TestHistoryAtTheCut(t *testing.T) {
	s, err := scenarios.LoadFile(writeBacktestScenario(t))
	if err != nil {
		t.Fatal(err)
	}
	h := time.Hour
	ws := []recorded{
		{name: "research/train-0", stream: "train", team: "research", arrived: 0, admitted: 0, ended: h, preempted: -1},
		{name: "research/train-1", stream: "train", team: "research", arrived: 10 * time.Minute, admitted: 20 * time.Minute, ended: 3 * h, preempted: -1},
		{name: "research/train-2", stream: "train", team: "research", arrived: 20 * time.Minute, admitted: 30 * time.Minute, ended: -1, preempted: 90 * time.Minute},
		{name: "prod/serve-0", stream: "serve", team: "prod", arrived: 30 * time.Minute, admitted: -1, ended: -1, preempted: -1},
		{name: "prod/serve-1", stream: "serve", team: "prod", arrived: 2 * h, admitted: 2 * h, ended: 3 * h, preempted: -1},
		{name: "prod/serve-2", stream: "serve", team: "prod", arrived: 3 * h, admitted: 3 * h, ended: 4 * h, preempted: -1},
	}
	run := record.Build(events(1, ws, 4*h))
	history, err := historyAt(run, s, 2*h)
	if err != nil {
		t.Fatal(err)
	}
	dump := filepath.Join(t.TempDir(), "workloads.yaml")
	if err := writeHistory(dump, history); err != nil {
		t.Fatal(err)
	}
	// The dump reads as the import reads a cluster's.
	wls, err := kube.ReadWorkloads(dump)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]kueue.Workload{}
	for _, wl := range wls {
		got[wl.Namespace+"/"+wl.Name] = wl
	}
	if len(got) != 4 {
		t.Fatalf("workloads at 2h: got %d, want the 4 that arrived before it", len(got))
	}
	state := func(name string) string {
		wl := got[name]
		c := wl.Status.Conditions
		switch {
		case apimeta.IsStatusConditionTrue(c, kueue.WorkloadFinished):
			return "finished"
		case apimeta.IsStatusConditionTrue(c, kueue.WorkloadAdmitted) && apimeta.IsStatusConditionTrue(c, kueue.WorkloadQuotaReserved):
			return "admitted"
		}
		return "pending"
	}
	for name, want := range map[string]string{
		"research/train-0": "finished", "research/train-1": "admitted",
		"research/train-2": "pending", "prod/serve-0": "pending",
	} {
		if s := state(name); s != want {
			t.Errorf("%s at 2h: got %s, want %s", name, s, want)
		}
	}
	train1 := got["research/train-1"]
	if at := apimeta.FindStatusCondition(train1.Status.Conditions, kueue.WorkloadAdmitted).LastTransitionTime.Time; !at.Equal(BacktestOrigin.Add(20 * time.Minute)) {
		t.Errorf("research/train-1 admitted at %s, want 20m past the origin", at)
	}
	if !train1.CreationTimestamp.Time.Equal(BacktestOrigin.Add(10 * time.Minute)) {
		t.Errorf("research/train-1 created at %s, want 10m past the origin", train1.CreationTimestamp)
	}
	if a := train1.Status.Admission; a == nil || a.ClusterQueue != "research" || a.PodSetAssignments[0].Flavors["nvidia.com/gpu"] != "a100" {
		t.Errorf("research/train-1 admission: got %+v, want research on a100", a)
	}
	if q, ps := train1.Spec.QueueName, train1.Spec.PodSets; q != "gpu" || len(ps) != 1 || ps[0].Count != 1 ||
		ps[0].Template.Spec.Containers[0].Resources.Requests.Name("nvidia.com/gpu", "").Value() != 2 || len(train1.OwnerReferences) != 0 {
		t.Errorf("research/train-1: got queue %s, pod sets %+v, owners %v; want a raw Workload of one 2-GPU pod to gpu", q, ps, train1.OwnerReferences)
	}
	if o := got["prod/serve-0"].OwnerReferences; len(o) != 1 || o[0].Kind != "Job" || o[0].APIVersion != "batch/v1" {
		t.Errorf("prod/serve-0 owners: got %v, want its Job", o)
	}
}

func TestBacktest(t *testing.T) {
	path := writeBacktestScenario(t)
	fake := &fakeBacktest{t: t, recorded: path, wait: 5 * time.Minute}
	work := t.TempDir()
	res, err := Backtest(context.Background(), path, fake.replay, WithTargets(4), WithBacktestRuns(3),
		WithBacktestSeed(7), WithBacktestWorkDir(work))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(fake.seeds, []int64{7}) {
		t.Errorf("recorded runs' seeds: got %v, want [7]", fake.seeds)
	}
	var names []string
	for _, tg := range res.Targets {
		names = append(names, tg.Workload)
	}
	// 20 arrivals, 12 in the middle (train-2 to serve-7); 4 at the middles
	// of quarters.
	if want := []string{"prod/serve-2", "research/train-4", "prod/serve-5", "research/train-7"}; !slices.Equal(names, want) {
		t.Fatalf("targets: got %v, want %v", names, want)
	}
	// serve-2 waited 2m, train-4 4m, serve-5 5m, train-7 7m; every
	// forecast says 5m.
	if res.Inside != 1 || res.Calibration != 0.25 || !res.Targets[2].Inside {
		t.Errorf("inside: got %d (%v), want 1 (serve-5's 5m)", res.Inside, res.Calibration)
	}
	if res.MedianAbsErrorSeconds == nil || *res.MedianAbsErrorSeconds != 60 || res.Compared != 4 {
		t.Errorf("median |p50 - actual|: got %s over %d, want 1m0s (errors 3m, 1m, 0s, 2m) over 4", seconds(res.MedianAbsErrorSeconds), res.Compared)
	}
	if res.Seed != 7 || res.RunsPerTarget != 3 || res.KueueVersion != "v0.19.2" {
		t.Errorf("result: seed %d, runs %d, Kueue %s", res.Seed, res.RunsPerTarget, res.KueueVersion)
	}
	// train-7 arrived at 1h10m; its cut's scenario replays what ran and
	// waited then.
	tg := res.Targets[3]
	if tg.CutSeconds != 4200 || tg.ActualWaitSeconds == nil || *tg.ActualWaitSeconds != 420 {
		t.Errorf("train-7: cut %vs, actual %s; want 4200s and 7m", tg.CutSeconds, seconds(tg.ActualWaitSeconds))
	}
	for _, f := range []string{"actual/" + EventsFile, "cut-3/workloads.yaml", "cut-3/job.yaml", "cut-3/cluster/scenario.yaml", "cut-3/runs/0-0/" + EventsFile} {
		if _, err := os.Stat(filepath.Join(work, f)); err != nil {
			t.Errorf("work dir: %v", err)
		}
	}
	cut, err := scenarios.LoadFile(filepath.Join(work, "cut-3", "cluster", "scenario.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	arrivals := 0
	for _, st := range cut.Workloads {
		arrivals += len(st.Arrival.At)
	}
	// Of the 14 arrived before (train-0 to -6, serve-0 to -6), the 8 that
	// finished are left out: the forecast replays from the present.
	if arrivals != 6 {
		t.Errorf("cut at 1h10m: the imported scenario has %d arrivals, want the 6 running or waiting then", arrivals)
	}
	// A train target (raw Workloads) is forecast as a raw Workload, a
	// serve target (Jobs) as a batch Job of its pods.
	for i, s := range fake.forecasts {
		job := s.Workloads[len(s.Workloads)-1]
		if job.Template == nil || job.Template.Loaded == nil {
			t.Fatalf("the forecast's job stream has no template")
		}
		obj := job.Template.Loaded.Object
		switch target := res.Targets[i].Workload; {
		case strings.Contains(target, "/train-"):
			if _, ok := obj.(*kueue.Workload); !ok {
				t.Errorf("%s is forecast as a %T, want a raw Workload", target, obj)
			}
		default:
			j, ok := obj.(*batchv1.Job)
			if !ok || *j.Spec.Parallelism != 1 || j.Labels[QueueLabel] != "gpu" {
				t.Fatalf("%s is forecast as %#v, want a Job of one pod in LocalQueue gpu", target, obj)
			}
			// The API server refuses a GPU request without its limit.
			if gpu := j.Spec.Template.Spec.Containers[0].Resources.Limits["nvidia.com/gpu"]; gpu.Value() != 1 {
				t.Errorf("%s's container limits: %v, want nvidia.com/gpu: 1", target, j.Spec.Template.Spec.Containers[0].Resources.Limits)
			}
		}
	}
}

func TestBacktestBadOptionsAreInputErrors(t *testing.T) {
	path := writeBacktestScenario(t)
	for _, opt := range []BacktestOption{WithTargets(0), WithBacktestRuns(0)} {
		fake := &fakeBacktest{t: t, recorded: path}
		_, err := Backtest(context.Background(), path, fake.replay, opt)
		var ie *InputError
		if !errors.As(err, &ie) {
			t.Errorf("got %v, want an *InputError", err)
		}
		if len(fake.seeds) != 0 {
			t.Errorf("got a recorded run, want none before the input is checked")
		}
	}
	fake := &fakeBacktest{t: t}
	var ie *InputError
	if _, err := Backtest(context.Background(), filepath.Join(t.TempDir(), "none.yaml"), fake.replay); !errors.As(err, &ie) {
		t.Errorf("a missing scenario: got %v, want an *InputError", err)
	}
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	if err := os.WriteFile(bad, []byte(strings.Replace(backtestScenario, "kind: Workload\n", "kind: Workloads\n", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Backtest(context.Background(), bad, fake.replay); !scenarios.IsInvalid(err) {
		t.Errorf("an invalid scenario: got %v, want a scenario error", err)
	}
}

func TestBacktestScore(t *testing.T) {
	v := func(d time.Duration) *float64 { s := d.Seconds(); return &s }
	m := time.Minute
	r := &BacktestResult{Targets: []BacktestTarget{
		{ActualWaitSeconds: v(5 * m), P10: v(0), P50: v(4 * m), P90: v(10 * m), Inside: true},
		{ActualWaitSeconds: v(30 * m), P10: v(0), P50: v(10 * m), P90: nil, Inside: true},
		{ActualWaitSeconds: nil, P10: v(m), P50: v(2 * m), P90: v(3 * m)},
		{ActualWaitSeconds: v(0), P10: v(m), P50: v(2 * m), P90: v(3 * m)},
	}}
	r.score()
	if r.Inside != 2 || r.Calibration != 0.5 {
		t.Errorf("inside: got %d (%v), want 2 (0.5)", r.Inside, r.Calibration)
	}
	// Errors 1m, 20m, 2m: the never-admitted target has none.
	if r.Compared != 3 || r.MedianAbsErrorSeconds == nil || *r.MedianAbsErrorSeconds != 120 {
		t.Errorf("median error: got %s over %d, want 2m0s over 3", seconds(r.MedianAbsErrorSeconds), r.Compared)
	}
}

func TestInsideBand(t *testing.T) {
	v := func(s float64) *float64 { return &s }
	for _, c := range []struct {
		actual, p10, p90 *float64
		want             bool
	}{
		{v(5), v(5), v(5), true},
		{v(5), v(6), v(9), false},
		{v(10), v(6), v(9), false},
		{v(100), v(6), nil, true},
		{nil, v(6), nil, true},
		{nil, v(6), v(9), false},
		{v(1), nil, nil, false},
	} {
		if got := inside(c.actual, c.p10, c.p90); got != c.want {
			t.Errorf("actual %s in [%s, %s]: got %v, want %v", seconds(c.actual), seconds(c.p10), seconds(c.p90), got, c.want)
		}
	}
}

func TestWriteBacktestText(t *testing.T) {
	v := func(d time.Duration) *float64 { s := d.Seconds(); return &s }
	r := &BacktestResult{Scenario: "s.yaml", Seed: 10, KueueVersion: "v0.19.2", RunsPerTarget: 20, Targets: []BacktestTarget{
		{Workload: "nlp/finetune-7", CutSeconds: 7200, ActualWaitSeconds: v(12 * time.Minute), P10: v(0), P50: v(5 * time.Minute), P90: v(20 * time.Minute), Runs: 20, Inside: true},
		{Workload: "nlp/finetune-9", CutSeconds: 9000, P10: v(0), P50: v(5 * time.Minute), P90: v(20 * time.Minute), Runs: 20},
	}}
	r.score()
	var b bytes.Buffer
	if err := WriteBacktestText(&b, r); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"backtest of s.yaml (recorded run: seed 10, Kueue v0.19.2): 2 workloads",
		"nlp/finetune-7  2h0m0s      12m0s",
		"never admitted",
		"calibration 1/2 actual waits inside p10–p90 (50%); median |p50 − actual| 7m0s (over 1 of 2 targets",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, b.String())
		}
	}
	b.Reset()
	if err := WriteBacktestJSON(&b, r); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"calibration": 0.5`, `"actualWaitSeconds": null`, `"p10WaitSeconds": 0`, `"medianAbsErrorSeconds": 420`} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("JSON lacks %s:\n%s", want, b.String())
		}
	}
}
