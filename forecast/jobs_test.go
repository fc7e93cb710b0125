package forecast

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/kueue-sim/kueue-sim/sim/engine"
)

// testJobNamed is testJob's text with the Job named name.
func testJobNamed(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(testJob)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Replace(string(data), "name: finetune", "name: "+name, 1)
}

// writeFile writes content to dir/name and returns its path.
func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// twoJobFile is a file of two documents: testJob as first and second,
// after a comment and a leading ---.
func twoJobFile(t *testing.T) string {
	t.Helper()
	return writeFile(t, t.TempDir(), "jobs.yaml",
		"# two jobs\n---\n"+testJobNamed(t, "first")+"---\n"+testJobNamed(t, "second"))
}

// secondDocLine is the line of the second document's queue label in
// twoJobFile: two lines before the first document, its 19 lines, and
// the --- before the second.
const secondDocLine = 2 + 19 + 1 + labelLine

func TestLoadJobsSeveralDocuments(t *testing.T) {
	path := twoJobFile(t)
	jobs, err := LoadJobs(path, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(jobs) != 2 {
		t.Fatalf("got %d jobs, want 2", len(jobs))
	}
	for i, want := range []string{"first", "second"} {
		if j := jobs[i]; j.Name != want || j.Doc != i+1 || j.Kind != "Job" || j.Queue != "gpu" {
			t.Errorf("job %d: got %s %s of document %d to %s, want Job %s of document %d", i, j.Kind, j.Name, j.Doc, j.Queue, want, i+1)
		}
	}
	if got := jobs[1].lineOf(QueueLabel); got != secondDocLine {
		t.Errorf("the second job's queue label: got line %d, want %d (the file's)", got, secondDocLine)
	}
}

func TestLoadJobsOneDocument(t *testing.T) {
	jobs, err := LoadJobs(testJob, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(jobs) != 1 || jobs[0].Doc != 0 || jobs[0].Name != "finetune" {
		t.Fatalf("got %d jobs (first %+v), want finetune alone, of no document index", len(jobs), jobs[0])
	}
}

// A document that does not decode is named by file, line and document.
func TestLoadJobsBadSecondDocument(t *testing.T) {
	bad := strings.Replace(testJobNamed(t, "second"), "parallelism: 2", "paralelism: 2", 1)
	path := writeFile(t, t.TempDir(), "jobs.yaml", testJobNamed(t, "first")+"---\n"+bad)
	_, err := LoadJobs(path, "")
	asInputError(t, err)
	// spec.paralelism is on line 9 of the document, which starts on line 21.
	for _, want := range []string{path + ":29: document 2:", "paralelism"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
}

func TestLoadJobsNamesStdin(t *testing.T) {
	path := writeFile(t, t.TempDir(), StdinFile, "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n")
	_, err := LoadJobs(path, StdinName)
	asInputError(t, err)
	if msg := err.Error(); !strings.HasPrefix(msg, "<stdin>:1: ") || strings.Contains(msg, path) {
		t.Errorf("error %q does not start with <stdin>:1: alone", msg)
	}
}

// The jobs' streams come last in the derived scenario, in the order given,
// and the replay submits their arrivals, all at --at, in that order.
func checkSubmitted(t *testing.T, c replayCall, want ...string) {
	t.Helper()
	if c.loaded == nil {
		t.Fatal("the scenario did not load")
	}
	arrivals, err := engine.Plan(c.loaded, c.seed)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, a := range arrivals {
		if a.At == 30*time.Minute {
			got = append(got, a.Name)
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("arrivals at 30m: got %v, want %v", got, want)
	}
}

// templateNames are the object names of the templates of the derived
// scenario's forecast streams, in stream order.
func templateNames(t *testing.T, c replayCall) []string {
	t.Helper()
	var out []string
	for _, w := range c.loaded.Workloads {
		if strings.HasPrefix(w.Name, "forecast") {
			out = append(out, w.Template.Loaded.Object.GetName())
		}
	}
	return out
}

func TestRunTwoJobsInOneFile(t *testing.T) {
	fake := &fakeReplay{t: t}
	path := twoJobFile(t)
	req := testRequest()
	req.Jobs = []string{path}
	f, err := Run(context.Background(), req, fake.replay)
	if err != nil {
		t.Fatal(err)
	}
	want := []JobInfo{
		{File: path, Document: 1, Kind: "Job", Workload: "research/forecast-0"},
		{File: path, Document: 2, Kind: "Job", Workload: "research/forecast-1-0"},
	}
	if !slices.Equal(f.Jobs, want) {
		t.Errorf("jobs: got %+v, want %+v", f.Jobs, want)
	}
	if len(fake.calls) != 1 {
		t.Fatalf("got %d replays, want 1 (both jobs in one run)", len(fake.calls))
	}
	checkSubmitted(t, fake.calls[0], "forecast-0", "forecast-1-0")
	if got := templateNames(t, fake.calls[0]); !slices.Equal(got, []string{"first", "second"}) {
		t.Errorf("templates: got %v, want first, second", got)
	}
	a := f.Alternatives[0]
	if len(a.Jobs) != 2 {
		t.Fatalf("as written: got %d jobs, want 2", len(a.Jobs))
	}
	for i, jf := range a.Jobs {
		if jf.Workload != want[i].Workload || jf.Summary.Runs != 1 || jf.Summary.AtOnce != 1 {
			t.Errorf("job %d: got %s, summary %+v; want %s admitted at once in its one run", i, jf.Workload, jf.Summary, want[i].Workload)
		}
	}
}

func TestRunJobsOfTwoFiles(t *testing.T) {
	fake := &fakeReplay{t: t}
	dir := t.TempDir()
	b := writeFile(t, dir, "b.yaml", testJobNamed(t, "bee"))
	a := writeFile(t, dir, "a.yaml", testJobNamed(t, "ay"))
	req := testRequest()
	req.Jobs = []string{b, a}
	f, err := Run(context.Background(), req, fake.replay)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Jobs) != 2 || f.Jobs[0].File != b || f.Jobs[1].File != a || f.Jobs[0].Document != 0 {
		t.Errorf("jobs: got %+v, want b.yaml then a.yaml, of no document index", f.Jobs)
	}
	checkSubmitted(t, fake.calls[0], "forecast-0", "forecast-1-0")
	if got := templateNames(t, fake.calls[0]); !slices.Equal(got, []string{"bee", "ay"}) {
		t.Errorf("templates: got %v, want bee, ay", got)
	}
	var files []string
	for _, w := range fake.calls[0].loaded.Workloads[1:] {
		files = append(files, w.Template.File)
	}
	if !slices.Equal(files, []string{b, a}) {
		t.Errorf("template files: got %v, want the job files themselves", files)
	}
}

func TestRunResourceTryChangesEveryJob(t *testing.T) {
	fake := &fakeReplay{t: t}
	dir := t.TempDir()
	cpuOnly := strings.NewReplacer(`, nvidia.com/gpu: "4"}`, "}", `limits: {nvidia.com/gpu: "4"}`, `limits: {cpu: "2"}`).Replace(testJobNamed(t, "cpu"))
	req := testRequest()
	req.Jobs = []string{twoJobFile(t), writeFile(t, dir, "cpu.yaml", cpuOnly)}
	try := Try{Resource: "nvidia.com/gpu", Quantity: resource.MustParse("2")}
	f, err := Run(context.Background(), req, fake.replay, WithTries(try), WithWorkDir(t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Alternatives) != 2 || len(f.Alternatives[1].Jobs) != 3 {
		t.Fatalf("got %+v, want two alternatives of three jobs", f.Alternatives)
	}
	var tried *replayCall
	for i, c := range fake.calls {
		if strings.Contains(c.dir, "1-0") {
			tried = &fake.calls[i]
		}
	}
	if tried == nil || tried.loaded == nil {
		t.Fatal("no replay of the try")
	}
	checkSubmitted(t, *tried, "forecast-0", "forecast-1-0", "forecast-2-0")
	ws := tried.loaded.Workloads
	for _, w := range ws[len(ws)-3 : len(ws)-1] {
		if got := resourcesOf(containers(t, w.Template.File)[0], "requests")["nvidia.com/gpu"]; got != "2" {
			t.Errorf("%s: got nvidia.com/gpu %v, want 2", w.Name, got)
		}
	}
	if last := ws[len(ws)-1]; last.Template.File != req.Jobs[1] {
		t.Errorf("the CPU job: got template %s, want its file as written", last.Template.File)
	}
}

func TestRunResourceTryNoJobAsksForIsRefused(t *testing.T) {
	fake := &fakeReplay{t: t}
	req := testRequest()
	req.Jobs = []string{twoJobFile(t)}
	_, err := Run(context.Background(), req, fake.replay, WithTries(Try{Resource: "amd.com/gpu", Quantity: resource.MustParse("1")}))
	asInputError(t, err)
	for _, want := range []string{"--try amd.com/gpu=1", "the 2 jobs", "amd.com/gpu"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	if len(fake.calls) != 0 {
		t.Errorf("got %d replays, want none", len(fake.calls))
	}
}

// twoQueueScenario is testScenario with a second LocalQueue, other, of
// the same ClusterQueue.
func twoQueueScenario(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(testScenario)
	if err != nil {
		t.Fatal(err)
	}
	old := "localQueues: [{name: gpu, clusterQueue: research}]"
	s := strings.Replace(string(data), old, "localQueues: [{name: gpu, clusterQueue: research}, {name: other, clusterQueue: research}]", 1)
	if s == string(data) {
		t.Fatalf("%s has no %q", testScenario, old)
	}
	return writeFile(t, t.TempDir(), "scenario.yaml", s)
}

func TestRunQueueTrySendsEveryJob(t *testing.T) {
	fake := &fakeReplay{t: t}
	req := testRequest()
	req.Jobs, req.Scenario = []string{twoJobFile(t)}, twoQueueScenario(t)
	f, err := Run(context.Background(), req, fake.replay, WithTries(Try{Queue: "other"}))
	if err != nil {
		t.Fatal(err)
	}
	for _, jf := range f.Alternatives[1].Jobs {
		if jf.LocalQueue != "research/other" {
			t.Errorf("queue=other: %s goes to %s, want research/other", jf.Workload, jf.LocalQueue)
		}
	}
	for _, c := range fake.calls {
		if !strings.Contains(c.dir, "1-0") {
			continue
		}
		for _, w := range c.loaded.Workloads[1:] {
			if w.Queue != "other" || w.Template.Loaded.Object.GetLabels()[QueueLabel] != "other" {
				t.Errorf("queue=other: stream %s goes to %s", w.Name, w.Queue)
			}
		}
	}
}

// A problem with the second document's placement names the file, the
// line in the file and the document.
func TestRunBadSecondDocumentNamesItsLine(t *testing.T) {
	dir := t.TempDir()
	second := strings.Replace(testJobNamed(t, "second"), "queue-name: gpu", "queue-name: nope", 1)
	path := writeFile(t, dir, "jobs.yaml", "# two jobs\n---\n"+testJobNamed(t, "first")+"---\n"+second)
	fake := &fakeReplay{t: t}
	req := testRequest()
	req.Jobs = []string{path}
	_, err := Run(context.Background(), req, fake.replay)
	asInputError(t, err)
	for _, want := range []string{path + ":" + strconv.Itoa(secondDocLine) + ": document 2: metadata.labels[" + QueueLabel + "]", "nope"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
}

func TestRunReadsStdin(t *testing.T) {
	fake := &fakeReplay{t: t}
	work := t.TempDir()
	req := testRequest()
	req.Jobs = []string{"-", testJob}
	req.Stdin = strings.NewReader(testJobNamed(t, "piped") + "---\n" + testJobNamed(t, "piped-too"))
	f, err := Run(context.Background(), req, fake.replay, WithWorkDir(work))
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, j := range f.Jobs {
		files = append(files, j.File)
	}
	if want := []string{StdinName, StdinName, testJob}; !slices.Equal(files, want) {
		t.Errorf("job files: got %v, want %v", files, want)
	}
	if _, err := os.Stat(filepath.Join(work, StdinFile)); err != nil {
		t.Errorf("stdin is not kept in the forecast's folder: %v", err)
	}
	checkSubmitted(t, fake.calls[0], "forecast-0", "forecast-1-0", "forecast-2-0")
	if got := templateNames(t, fake.calls[0]); !slices.Equal(got, []string{"piped", "piped-too", "finetune"}) {
		t.Errorf("templates: got %v, want piped, piped-too, finetune", got)
	}
}

func TestRunBadStdinNamesStdin(t *testing.T) {
	req := testRequest()
	req.Jobs = []string{"-"}
	req.Stdin = strings.NewReader(strings.Replace(testJobNamed(t, "piped"), "queue-name: gpu", "queue-name: nope", 1))
	_, err := Run(context.Background(), req, (&fakeReplay{t: t}).replay)
	asInputError(t, err)
	if want := "<stdin>:" + strconv.Itoa(labelLine) + ": "; !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error %q does not start with %q", err, want)
	}
}

func TestRunStdinTwiceIsRefused(t *testing.T) {
	req := testRequest()
	req.Jobs, req.Stdin = []string{"-", "-"}, strings.NewReader("")
	_, err := Run(context.Background(), req, (&fakeReplay{t: t}).replay)
	asInputError(t, err)
}

func TestWriteTextSeveralJobs(t *testing.T) {
	f := notAdmitted()
	f.Jobs = append(f.Jobs, JobInfo{File: "jobs.yaml", Document: 2, Kind: "RayJob", Workload: "research/forecast-1-0"})
	f.Alternatives[0].Jobs = append(f.Alternatives[0].Jobs, JobForecast{LocalQueue: "research/gpu", Workload: "research/forecast-1-0",
		Summary: Summary{Runs: 4, Admitted: 4, AtOnce: 4, ClusterQueue: "research", Flavors: "nvidia.com/gpu=a100", Share: 4}})
	var b bytes.Buffer
	if err := WriteText(&b, f); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	first := strings.Index(out, "\n1. Job research/forecast-0 (job.yaml)\n")
	second := strings.Index(out, "\n2. RayJob research/forecast-1-0 (jobs.yaml, document 2)\n")
	if !strings.HasPrefix(out, "forecast of 2 jobs, submitted in this order at 0s of scenario.yaml") || first < 0 || second < first {
		t.Fatalf("output lacks the header or a block per job in order:\n%s", out)
	}
	if !strings.Contains(out[first:second], "not admitted within the horizon in 2 of 4 runs") || !strings.Contains(out[second:], "100% (4/4)") {
		t.Errorf("a job's block holds another's figures:\n%s", out)
	}
}
