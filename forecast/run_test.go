package forecast

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/kueue-sim/kueue-sim/scenarios"
	"github.com/kueue-sim/kueue-sim/sim/record"
)

// replayCall is one call of a fake ReplayFunc.
type replayCall struct {
	scenario string
	seed     int64
	dir      string
	// loaded is the scenario file as scenarios.LoadFile reads it.
	loaded *scenarios.Scenario
}

// fakeReplay records its calls and writes a log in which Kueue admits
// each forecast stream's workload (research/forecast-0 of one job) at
// once, at 30m, in ClusterQueue research.
type fakeReplay struct {
	t     *testing.T
	mu    sync.Mutex
	calls []replayCall
	// noEnd cuts the log off before its End event.
	noEnd bool
}

func (f *fakeReplay) replay(_ context.Context, scenario string, seed int64, dir string) error {
	loaded, err := scenarios.LoadFile(scenario)
	if err != nil {
		f.t.Errorf("replay of %s: the scenario does not load: %v", scenario, err)
	}
	f.mu.Lock()
	f.calls = append(f.calls, replayCall{scenario: scenario, seed: seed, dir: dir, loaded: loaded})
	f.mu.Unlock()
	fh, err := os.Create(filepath.Join(dir, EventsFile))
	if err != nil {
		return err
	}
	defer fh.Close()
	w := record.NewWriter(fh)
	at := record.Duration(30 * time.Minute)
	evs := []record.Event{{Type: record.TypeRun, Scenario: "forecast", Seed: &seed, KueueVersion: "v0.19.2"}}
	for _, w := range forecastWorkloads(loaded) {
		evs = append(evs,
			record.Event{T: at, Type: record.TypeArrived, Workload: w, ClusterQueue: "research"},
			record.Event{T: at, Type: record.TypeAdmitted, Workload: w, ClusterQueue: "research", Flavors: map[string]string{"nvidia.com/gpu": "a100"}})
	}
	if !f.noEnd {
		evs = append(evs, record.Event{T: record.Duration(time.Hour), Type: record.TypeEnd})
	}
	for _, e := range evs {
		if err := w.Write(e); err != nil {
			return err
		}
	}
	return w.Flush()
}

// forecastWorkloads are the namespace/name of the first arrival of each
// stream of s the forecast added, in stream order; jobName alone when s
// did not load.
func forecastWorkloads(s *scenarios.Scenario) []string {
	if s == nil {
		return []string{jobName}
	}
	var out []string
	for _, w := range s.Workloads {
		if !strings.HasPrefix(w.Name, "forecast") {
			continue
		}
		for _, t := range s.Teams {
			if t.Name == w.Team {
				out = append(out, t.Namespace+"/"+scenarios.ArrivalName(w.Name, 0))
			}
		}
	}
	return out
}

func (f *fakeReplay) seeds() []int64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []int64
	for _, c := range f.calls {
		out = append(out, c.seed)
	}
	slices.Sort(out)
	return out
}

func testRequest() Request {
	return Request{Jobs: []string{testJob}, Scenario: testScenario, At: 30 * time.Minute}
}

// randomScenario is testScenario with the running job's stream drawing
// Poisson arrivals.
func randomScenario(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(testScenario)
	if err != nil {
		t.Fatal(err)
	}
	s := strings.Replace(string(data), "arrival: {at: [0s]}", "arrival: {poisson: 1h}", 1)
	if s == string(data) {
		t.Fatalf("%s has no explicit arrival to replace", testScenario)
	}
	path := filepath.Join(t.TempDir(), "scenario.yaml")
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestRunNonRandomReplaysOnce(t *testing.T) {
	fake := &fakeReplay{t: t}
	f, err := Run(context.Background(), testRequest(), fake.replay, WithRuns(5))
	if err != nil {
		t.Fatal(err)
	}
	if got := fake.seeds(); !slices.Equal(got, []int64{1}) {
		t.Errorf("seeds replayed: got %v, want [1] (the scenario's seed, once)", got)
	}
	if f.Random || len(f.Alternatives) != 1 || len(f.Alternatives[0].Jobs) != 1 || len(f.Alternatives[0].Jobs[0].Runs) != 1 {
		t.Fatalf("forecast: got random %v and %d alternatives, want one alternative of one job and one run", f.Random, len(f.Alternatives))
	}
	a, jf := f.Alternatives[0], f.Alternatives[0].Jobs[0]
	want := []JobInfo{{File: testJob, Kind: "Job", Workload: jobName}}
	if a.Name != "as written" || jf.LocalQueue != "research/gpu" || !slices.Equal(f.Jobs, want) || f.KueueVersion != "v0.19.2" {
		t.Errorf("forecast: got %q in %s, jobs %+v, Kueue %s", a.Name, jf.LocalQueue, f.Jobs, f.KueueVersion)
	}
	if s := jf.Summary; s.Runs != 1 || s.AtOnce != 1 || s.ClusterQueue != "research" {
		t.Errorf("summary: got %+v, want one run admitted at once in research", s)
	}
}

func TestRunRandomReplaysEachSeed(t *testing.T) {
	fake := &fakeReplay{t: t}
	req := testRequest()
	req.Scenario = randomScenario(t)
	f, err := Run(context.Background(), req, fake.replay, WithRuns(5), WithParallel(2))
	if err != nil {
		t.Fatal(err)
	}
	if got := fake.seeds(); !slices.Equal(got, []int64{1, 2, 3, 4, 5}) {
		t.Errorf("seeds replayed: got %v, want 1 to 5", got)
	}
	if !f.Random || len(f.Alternatives[0].Jobs[0].Runs) != 5 {
		t.Errorf("forecast: got random %v with %d runs, want random with 5", f.Random, len(f.Alternatives[0].Jobs[0].Runs))
	}
	for i, o := range f.Alternatives[0].Jobs[0].Runs {
		if o.Seed != int64(1+i) {
			t.Errorf("run %d: got seed %d, want %d", i, o.Seed, 1+i)
		}
	}
}

func TestRunWithSeed(t *testing.T) {
	fake := &fakeReplay{t: t}
	req := testRequest()
	req.Scenario = randomScenario(t)
	if _, err := Run(context.Background(), req, fake.replay, WithRuns(3), WithSeed(100)); err != nil {
		t.Fatal(err)
	}
	if got := fake.seeds(); !slices.Equal(got, []int64{100, 101, 102}) {
		t.Errorf("seeds replayed: got %v, want 100 to 102", got)
	}
}

func TestRunPassesLoadableScenario(t *testing.T) {
	fake := &fakeReplay{t: t}
	if _, err := Run(context.Background(), testRequest(), fake.replay); err != nil {
		t.Fatal(err)
	}
	if len(fake.calls) != 1 {
		t.Fatalf("got %d replays, want 1", len(fake.calls))
	}
	c := fake.calls[0]
	if filepath.Base(c.scenario) != "scenario.yaml" || filepath.Dir(c.scenario) != c.dir {
		t.Errorf("scenario %s: want scenario.yaml in the run's folder %s", c.scenario, c.dir)
	}
	if c.loaded == nil {
		t.Fatal("the scenario did not load")
	}
	last := c.loaded.Workloads[len(c.loaded.Workloads)-1]
	if last.Name != "forecast" || last.Team != "research" || last.Queue != "gpu" || last.Template == nil || !filepath.IsAbs(last.Template.File) {
		t.Errorf("last stream: got %s of team %s to %s, want forecast of research to gpu from an absolute template", last.Name, last.Team, last.Queue)
	}
	if end := c.loaded.End; end == nil || end.Duration != 7*24*time.Hour+30*time.Minute {
		t.Errorf("end: got %v, want at plus the default horizon", end)
	}
}

func TestRunWorkDirKeepsRuns(t *testing.T) {
	fake := &fakeReplay{t: t}
	work := t.TempDir()
	if _, err := Run(context.Background(), testRequest(), fake.replay, WithWorkDir(work)); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"scenario.yaml", EventsFile} {
		if _, err := os.Stat(filepath.Join(work, "runs", "0-0", name)); err != nil {
			t.Errorf("the run's %s: %v", name, err)
		}
	}
}

func TestRunResourceTry(t *testing.T) {
	fake := &fakeReplay{t: t}
	try := Try{Resource: "nvidia.com/gpu", Quantity: resource.MustParse("2")}
	f, err := Run(context.Background(), testRequest(), fake.replay, WithTries(try), WithWorkDir(t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	if len(fake.calls) != 2 {
		t.Fatalf("got %d replays, want 2 (as written and the try)", len(fake.calls))
	}
	var names []string
	for _, a := range f.Alternatives {
		names = append(names, a.Name)
	}
	if want := []string{"as written", "nvidia.com/gpu=2"}; !slices.Equal(names, want) {
		t.Errorf("alternatives: got %v, want %v", names, want)
	}
	written, err := filepath.Abs(testJob)
	if err != nil {
		t.Fatal(err)
	}
	var tried []string
	for _, c := range fake.calls {
		if c.loaded == nil {
			continue
		}
		ws := c.loaded.Workloads
		if file := ws[len(ws)-1].Template.File; file != written {
			tried = append(tried, file)
		}
	}
	if len(tried) != 1 {
		t.Fatalf("templates other than %s: got %v, want the try's file alone", written, tried)
	}
	if got := resourcesOf(containers(t, tried[0])[0], "requests")["nvidia.com/gpu"]; got != "2" {
		t.Errorf("the try's file: got nvidia.com/gpu %v, want 2", got)
	}
}

func TestRunUnknownQueueTryIsInputError(t *testing.T) {
	fake := &fakeReplay{t: t}
	_, err := Run(context.Background(), testRequest(), fake.replay, WithTries(Try{Queue: "nope"}))
	var ie *InputError
	if !errors.As(err, &ie) {
		t.Fatalf("got %v, want an *InputError", err)
	}
	if !strings.Contains(err.Error(), "queue=nope") {
		t.Errorf("error %q does not name the try", err)
	}
	if len(fake.calls) != 0 {
		t.Errorf("got %d replays, want none before the input is checked", len(fake.calls))
	}
}

func TestRunBadOptionsAreInputErrors(t *testing.T) {
	endsAt1h := scenarioEnding(t, "1h")
	for _, tc := range []struct {
		name     string
		scenario string
		at       time.Duration
		opts     []Option
	}{
		{"negative at", testScenario, -time.Minute, nil},
		{"zero duration", testScenario, time.Minute, []Option{WithDuration(0)}},
		{"zero horizon", testScenario, time.Minute, []Option{WithHorizon(0)}},
		{"zero runs", testScenario, time.Minute, []Option{WithRuns(0)}},
		{"at past the end", endsAt1h, 2 * time.Hour, nil},
		{"other namespace", testScenario, time.Minute, []Option{WithNamespace("elsewhere")}},
		{"unknown queue", testScenario, time.Minute, []Option{WithQueue("nope")}},
	} {
		fake := &fakeReplay{t: t}
		_, err := Run(context.Background(), Request{Jobs: []string{testJob}, Scenario: tc.scenario, At: tc.at}, fake.replay, tc.opts...)
		var ie *InputError
		if !errors.As(err, &ie) {
			t.Errorf("%s: got %v, want an *InputError", tc.name, err)
		}
		if len(fake.calls) != 0 {
			t.Errorf("%s: got %d replays, want none", tc.name, len(fake.calls))
		}
	}
}

// scenarioEnding is testScenario with an end.
func scenarioEnding(t *testing.T, end string) string {
	t.Helper()
	data, err := os.ReadFile(testScenario)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "scenario.yaml")
	if err := os.WriteFile(path, append(data, []byte("end: "+end+"\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestRunReplayErrorNamesRun(t *testing.T) {
	boom := errors.New("boom")
	fail := func(context.Context, string, int64, string) error { return boom }
	_, err := Run(context.Background(), testRequest(), fail)
	if !errors.Is(err, boom) {
		t.Fatalf("got %v, want the replay's error", err)
	}
	if !strings.Contains(err.Error(), "run 0-0 (seed 1)") {
		t.Errorf("error %q does not name the run", err)
	}
}

func TestRunLogWithoutEndIsError(t *testing.T) {
	fake := &fakeReplay{t: t, noEnd: true}
	_, err := Run(context.Background(), testRequest(), fake.replay)
	if err == nil || !strings.Contains(err.Error(), "ends before the run did") {
		t.Errorf("got %v, want an error saying the log ends early", err)
	}
}
