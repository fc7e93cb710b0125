package forecast

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kueue-sim/kueue-sim/scenarios"
)

// The scenario and job of `sim forecast`'s own tests: team research, whose
// namespace research has LocalQueue gpu pointing at ClusterQueue research.
const (
	testScenario = "../cmd/sim/testdata/forecast/scenario.yaml"
	testJob      = "../cmd/sim/testdata/forecast/job.yaml"
	// labelLine is the line of the queue label in testJob.
	labelLine = 7
)

func loadTestScenario(t *testing.T) *scenarios.Scenario {
	t.Helper()
	s, err := scenarios.LoadFile(testScenario)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// variant writes testJob with old replaced by new to a file job.yaml in a
// folder of its own and loads it.
func variant(t *testing.T, old, new string) *Job {
	t.Helper()
	data, err := os.ReadFile(testJob)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), old) {
		t.Fatalf("%s has no %q", testJob, old)
	}
	return writeJob(t, t.TempDir(), "job.yaml", strings.Replace(string(data), old, new, 1))
}

func asInputError(t *testing.T, err error) *InputError {
	t.Helper()
	var ie *InputError
	if !errors.As(err, &ie) {
		t.Fatalf("got %v, want an *InputError", err)
	}
	return ie
}

func TestLoadJob(t *testing.T) {
	j, err := LoadJob(testJob)
	if err != nil {
		t.Fatal(err)
	}
	if j.Kind != "Job" || j.Name != "finetune" || j.Namespace != "research" || j.Queue != "gpu" {
		t.Errorf("got kind %q, name %q, namespace %q, queue %q; want Job, finetune, research, gpu", j.Kind, j.Name, j.Namespace, j.Queue)
	}
	if !filepath.IsAbs(j.Path) {
		t.Errorf("Path %s is not absolute", j.Path)
	}
}

func TestLoadJobUnknownKind(t *testing.T) {
	path := filepath.Join(t.TempDir(), "deploy.yaml")
	if err := os.WriteFile(path, []byte("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec: {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := LoadJob(path)
	asInputError(t, err)
	if msg := err.Error(); !strings.HasPrefix(msg, path+":1: ") || !strings.Contains(msg, "Deployment") {
		t.Errorf("error %q does not start with %s:1: and name the kind", msg, path)
	}
}

func TestLoadJobMissingFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "none.yaml")
	_, err := LoadJob(path)
	asInputError(t, err)
	if !strings.Contains(err.Error(), path) {
		t.Errorf("error %q does not name the file", err)
	}
}

func TestPlaceByLabel(t *testing.T) {
	j, err := LoadJob(testJob)
	if err != nil {
		t.Fatal(err)
	}
	got, err := j.place(loadTestScenario(t), "", "")
	if err != nil {
		t.Fatal(err)
	}
	want := placement{team: "research", namespace: "research", queue: "gpu", clusterQueue: "research"}
	if got != want {
		t.Errorf("place: got %+v, want %+v", got, want)
	}
}

func TestPlaceUnknownQueue(t *testing.T) {
	j := variant(t, "queue-name: gpu", "queue-name: nope")
	_, err := j.place(loadTestScenario(t), "", "")
	asInputError(t, err)
	msg := err.Error()
	for _, want := range []string{fmt.Sprintf("job.yaml:%d:", labelLine), "nope", "gpu"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q lacks %q", msg, want)
		}
	}
}

func TestPlaceQueueOverrideUnknown(t *testing.T) {
	j, err := LoadJob(testJob)
	if err != nil {
		t.Fatal(err)
	}
	_, err = j.place(loadTestScenario(t), "", "nope")
	asInputError(t, err)
	if want := fmt.Sprintf("job.yaml:%d:", labelLine); !strings.Contains(err.Error(), want) {
		t.Errorf("error %q lacks %q (the label's line)", err, want)
	}
}

func TestPlaceNoLabel(t *testing.T) {
	j := variant(t, "    kueue.x-k8s.io/queue-name: gpu\n", "    team: research\n")
	_, err := j.place(loadTestScenario(t), "", "")
	asInputError(t, err)
	for _, want := range []string{QueueLabel, "research/gpu"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
}

func TestPlaceNoLabelQueueGiven(t *testing.T) {
	j := variant(t, "    kueue.x-k8s.io/queue-name: gpu\n", "    team: research\n")
	got, err := j.place(loadTestScenario(t), "", "gpu")
	if err != nil || got.queue != "gpu" || got.clusterQueue != "research" {
		t.Errorf("place with queue gpu: got %+v, %v; want LocalQueue gpu of ClusterQueue research", got, err)
	}
}

func TestPlaceNamespaceNoTeams(t *testing.T) {
	j := variant(t, "namespace: research", "namespace: elsewhere")
	_, err := j.place(loadTestScenario(t), "", "")
	asInputError(t, err)
	for _, want := range []string{"job.yaml:5:", "elsewhere", "research"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
}

func TestPlaceNamespaceConflict(t *testing.T) {
	j, err := LoadJob(testJob)
	if err != nil {
		t.Fatal(err)
	}
	_, err = j.place(loadTestScenario(t), "other", "")
	asInputError(t, err)
	if !strings.Contains(err.Error(), "other") {
		t.Errorf("error %q does not name --namespace's value", err)
	}
}

func TestPlaceNamespaceGiven(t *testing.T) {
	j := variant(t, "  namespace: research\n", "")
	got, err := j.place(loadTestScenario(t), "research", "")
	if err != nil || got.namespace != "research" || got.team != "research" {
		t.Errorf("place with namespace research: got %+v, %v", got, err)
	}
}

// twoTeams has LocalQueue gpu in namespace a only and LocalQueue shared in
// namespaces a and b.
func twoTeams() *scenarios.Scenario {
	return &scenarios.Scenario{Teams: []scenarios.Team{
		{Name: "team-a", Namespace: "a", LocalQueues: []scenarios.LocalQueue{{Name: "gpu", ClusterQueue: "cq-a"}, {Name: "shared", ClusterQueue: "cq-a"}}},
		{Name: "team-b", Namespace: "b", LocalQueues: []scenarios.LocalQueue{{Name: "shared", ClusterQueue: "cq-b"}}},
	}}
}

func TestPlaceWithoutNamespaceQueueInOneNamespace(t *testing.T) {
	j := variant(t, "  namespace: research\n", "")
	got, err := j.place(twoTeams(), "", "")
	want := placement{team: "team-a", namespace: "a", queue: "gpu", clusterQueue: "cq-a"}
	if err != nil || got != want {
		t.Errorf("place: got %+v, %v; want %+v", got, err, want)
	}
}

func TestPlaceWithoutNamespaceQueueInSeveral(t *testing.T) {
	j := variant(t, "  namespace: research\n", "")
	_, err := j.place(twoTeams(), "", "shared")
	asInputError(t, err)
	if !strings.Contains(err.Error(), "a, b") {
		t.Errorf("error %q does not name both namespaces", err)
	}
}

func TestPlaceWithoutNamespaceQueueNowhere(t *testing.T) {
	j := variant(t, "  namespace: research\n", "")
	_, err := j.place(twoTeams(), "", "nope")
	asInputError(t, err)
	if !strings.Contains(err.Error(), "a/gpu, a/shared, b/shared") {
		t.Errorf("error %q does not list the LocalQueues", err)
	}
}

func TestInputErrorWithErr(t *testing.T) {
	inner := errors.New("--runs 0: give 1 or more")
	err := error(&InputError{Err: inner})
	if err.Error() != inner.Error() || !errors.Is(err, inner) {
		t.Errorf("InputError{Err}: got %q, want it to read and unwrap as %q", err, inner)
	}
}
