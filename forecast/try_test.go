package forecast

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/api/resource"
	"sigs.k8s.io/yaml"
)

// twoContainerJob asks for GPUs in one container and not in its sidecar.
const twoContainerJob = `apiVersion: batch/v1
kind: Job
metadata:
  name: finetune
  namespace: research
  labels:
    kueue.x-k8s.io/queue-name: gpu
spec:
  parallelism: 2
  completions: 2
  template:
    spec:
      restartPolicy: Never
      containers:
      - name: trainer
        image: registry.example.com/finetune:1.0
        resources:
          requests: {cpu: "2", memory: 8Gi, nvidia.com/gpu: "4"}
          limits: {nvidia.com/gpu: "4"}
      - name: sidecar
        image: registry.example.com/sidecar:1.0
        resources:
          requests: {cpu: 100m}
`

// writeJob writes content to dir/name and loads it.
func writeJob(t *testing.T, dir, name, content string) *Job {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	j, err := LoadJob(path)
	if err != nil {
		t.Fatalf("LoadJob(%s): %v", name, err)
	}
	return j
}

// containers are the pod template's containers of the Job file at path.
func containers(t *testing.T, path string) []map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var obj map[string]any
	if err := yaml.Unmarshal(data, &obj); err != nil {
		t.Fatal(err)
	}
	spec := obj["spec"].(map[string]any)["template"].(map[string]any)["spec"].(map[string]any)
	var out []map[string]any
	for _, c := range spec["containers"].([]any) {
		out = append(out, c.(map[string]any))
	}
	return out
}

func resourcesOf(c map[string]any, kind string) map[string]any {
	rs, _ := c["resources"].(map[string]any)
	m, _ := rs[kind].(map[string]any)
	return m
}

func TestParseTriesResource(t *testing.T) {
	tries, err := ParseTries([]string{"nvidia.com/gpu=4,2"})
	if err != nil {
		t.Fatal(err)
	}
	if len(tries) != 2 {
		t.Fatalf("got %d tries, want 2: %v", len(tries), tries)
	}
	for i, want := range []string{"4", "2"} {
		if tries[i].Resource != "nvidia.com/gpu" || tries[i].Quantity.Cmp(resource.MustParse(want)) != 0 || tries[i].Queue != "" {
			t.Errorf("try %d: got %+v, want nvidia.com/gpu=%s", i, tries[i], want)
		}
		if got := tries[i].String(); got != "nvidia.com/gpu="+want {
			t.Errorf("try %d: String() = %s, want nvidia.com/gpu=%s", i, got, want)
		}
	}
}

func TestParseTriesQueue(t *testing.T) {
	tries, err := ParseTries([]string{"queue=a,b"})
	if err != nil {
		t.Fatal(err)
	}
	if len(tries) != 2 || tries[0].Queue != "a" || tries[1].Queue != "b" {
		t.Fatalf("got %v, want queue tries a and b", tries)
	}
	if got := tries[0].String(); got != "queue=a" {
		t.Errorf("String() = %s, want queue=a", got)
	}
}

func TestParseTriesSeveralValues(t *testing.T) {
	tries, err := ParseTries([]string{"cpu=500m", "queue=other"})
	if err != nil {
		t.Fatal(err)
	}
	if len(tries) != 2 || tries[0].Resource != "cpu" || tries[1].Queue != "other" {
		t.Errorf("got %v, want cpu=500m then queue=other", tries)
	}
}

func TestParseTriesBadForms(t *testing.T) {
	for _, v := range []string{"x", "=4", "nvidia.com/gpu=-1", "nvidia.com/gpu=abc", "queue=", "nvidia.com/gpu=", "queue=a,,b"} {
		if tries, err := ParseTries([]string{v}); err == nil {
			t.Errorf("ParseTries(%q): got %v, want an error", v, tries)
		}
	}
}

func TestTryApplyResource(t *testing.T) {
	dir := t.TempDir()
	j := writeJob(t, dir, "job.yaml", twoContainerJob)
	out := filepath.Join(dir, "job-1.yaml")
	if n, err := (Try{Resource: "nvidia.com/gpu", Quantity: resource.MustParse("2")}).apply(j, out); err != nil || n != 1 {
		t.Fatalf("apply: changed %d containers, %v; want 1", n, err)
	}
	cs := containers(t, out)
	if len(cs) != 2 {
		t.Fatalf("got %d containers, want 2", len(cs))
	}
	if got := resourcesOf(cs[0], "requests")["nvidia.com/gpu"]; got != "2" {
		t.Errorf("trainer requests nvidia.com/gpu: got %v, want 2", got)
	}
	if got := resourcesOf(cs[0], "limits")["nvidia.com/gpu"]; got != "2" {
		t.Errorf("trainer limits nvidia.com/gpu: got %v, want 2", got)
	}
	if got := resourcesOf(cs[0], "requests")["cpu"]; got != "2" {
		t.Errorf("trainer requests cpu: got %v, want 2 (unchanged)", got)
	}
	side := cs[1]
	if _, ok := resourcesOf(side, "requests")["nvidia.com/gpu"]; ok {
		t.Errorf("sidecar: got a GPU request, want none: %v", side["resources"])
	}
	if resourcesOf(side, "limits") != nil {
		t.Errorf("sidecar: got limits %v, want none", resourcesOf(side, "limits"))
	}
	if _, err := LoadJob(out); err != nil {
		t.Errorf("LoadJob of the rewritten file: %v", err)
	}
}

func TestTryApplyQueue(t *testing.T) {
	dir := t.TempDir()
	j := writeJob(t, dir, "job.yaml", twoContainerJob)
	out := filepath.Join(dir, "job-1.yaml")
	if _, err := (Try{Queue: "other"}).apply(j, out); err != nil {
		t.Fatal(err)
	}
	got, err := LoadJob(out)
	if err != nil {
		t.Fatalf("LoadJob of the rewritten file: %v", err)
	}
	if got.Queue != "other" || got.Name != "finetune" || got.Namespace != "research" {
		t.Errorf("rewritten job: got queue %q, name %q, namespace %q; want other, finetune, research", got.Queue, got.Name, got.Namespace)
	}
}

func TestTryApplyQueueAddsLabels(t *testing.T) {
	dir := t.TempDir()
	noLabels := strings.Replace(twoContainerJob, "  labels:\n    kueue.x-k8s.io/queue-name: gpu\n", "", 1)
	j := writeJob(t, dir, "job.yaml", noLabels)
	out := filepath.Join(dir, "job-1.yaml")
	if _, err := (Try{Queue: "gpu"}).apply(j, out); err != nil {
		t.Fatal(err)
	}
	got, err := LoadJob(out)
	if err != nil {
		t.Fatalf("LoadJob of the rewritten file: %v", err)
	}
	if got.Queue != "gpu" {
		t.Errorf("queue label: got %q, want gpu", got.Queue)
	}
}

// A resource no container asks for leaves the job as written: Run
// refuses the try when it changes no job of the request.
func TestTryApplyResourceNobodyAsksFor(t *testing.T) {
	dir := t.TempDir()
	j := writeJob(t, dir, "job.yaml", twoContainerJob)
	out := filepath.Join(dir, "job-1.yaml")
	n, err := (Try{Resource: "amd.com/gpu", Quantity: resource.MustParse("1")}).apply(j, out)
	if err != nil || n != 0 {
		t.Fatalf("apply: changed %d containers, %v; want none and no error", n, err)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("apply wrote %s for a try that changes nothing", out)
	}
}

func TestTryApplyTwoContainersAskingForResource(t *testing.T) {
	dir := t.TempDir()
	both := strings.Replace(twoContainerJob, "requests: {cpu: 100m}", "requests: {cpu: 100m, nvidia.com/gpu: \"1\"}", 1)
	j := writeJob(t, dir, "job.yaml", both)
	_, err := (Try{Resource: "nvidia.com/gpu", Quantity: resource.MustParse("2")}).apply(j, filepath.Join(dir, "job-1.yaml"))
	var ie *InputError
	if !errors.As(err, &ie) {
		t.Fatalf("got %v, want an *InputError", err)
	}
	if !strings.Contains(err.Error(), "spec.template.spec") {
		t.Errorf("error %q does not name the pod spec", err)
	}
}
