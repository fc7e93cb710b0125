package scenarios

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	batchv1 "k8s.io/api/batch/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
)

// templateRoles are the roles (pod set name and count) of each template of
// testdata/templates, by file.
var templateRoles = map[string]struct {
	kind  WorkloadKind
	roles string
}{
	"job.yaml":                    {KindJob, "main 4"},
	"pytorchjob.yaml":             {KindPyTorchJob, "master 1, worker 3"},
	"rayjob-sidecar.yaml":         {KindRayJob, "head 1, gpu-workers 4"},
	"raycluster-autoscaling.yaml": {KindRayCluster, "head 1, cpu 3"},
	"workload.yaml":               {KindWorkload, "driver 1, workers 6"},
	"workload-v1beta1.yaml":       {KindWorkload, "driver 1, workers 6"},
	"notebook.yaml":               {KindNotebook, "main 1"},
	"inferenceservice.yaml":       {KindInferenceService, "main 2"},
}

// roles is "name count, ..." of a template's pod sets.
func roles(t *LoadedTemplate) string {
	var out []string
	for _, ps := range t.PodSets() {
		out = append(out, fmt.Sprintf("%s %d", ps.Name, ps.Count))
	}
	return strings.Join(out, ", ")
}

// TestTemplateFiles loads a scenario whose streams each name a template
// file of testdata/templates: each stream's kind is its object's, it has
// no replicas, and its roles are Kueue's.
func TestTemplateFiles(t *testing.T) {
	s, err := LoadFile("testdata/templates.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Workloads) != len(templateRoles) {
		t.Fatalf("%d streams, want one per template (%d)", len(s.Workloads), len(templateRoles))
	}
	for _, w := range s.Workloads {
		lt := w.Template.Loaded
		if lt == nil {
			t.Fatalf("stream %s: template not loaded", w.Name)
		}
		want, ok := templateRoles[filepath.Base(w.Template.File)]
		if !ok {
			t.Fatalf("stream %s names %s, not in templateRoles", w.Name, w.Template.File)
		}
		if w.Kind != want.kind {
			t.Errorf("stream %s: kind %q, want %q", w.Name, w.Kind, want.kind)
		}
		if got := roles(lt); got != want.roles {
			t.Errorf("stream %s: roles %q, want %q", w.Name, got, want.roles)
		}
		if w.Replicas != nil {
			t.Errorf("stream %s: replicas %d, want none beside a template", w.Name, *w.Replicas)
		}
		if lt.Path != filepath.Join("testdata", w.Template.File) || lt.Line < 1 {
			t.Errorf("stream %s: template at %s:%d", w.Name, lt.Path, lt.Line)
		}
	}
}

// TestTemplateCleaned: what the cluster filled in an exported Job is
// dropped, the rest kept as written.
func TestTemplateCleaned(t *testing.T) {
	s, err := LoadFile("testdata/templates.yaml")
	if err != nil {
		t.Fatal(err)
	}
	job, ok := s.Workloads[0].Template.Loaded.Object.(*batchv1.Job)
	if !ok {
		t.Fatalf("the first stream's object is a %T", s.Workloads[0].Template.Loaded.Object)
	}
	if job.UID != "" || job.ResourceVersion != "" || job.Generation != 0 || !job.CreationTimestamp.IsZero() || job.Status.Active != 0 || job.Status.StartTime != nil {
		t.Errorf("runtime fields kept: %+v, status %+v", job.ObjectMeta, job.Status)
	}
	if job.Annotations != nil || job.Spec.Selector != nil {
		t.Errorf("annotations %v and selector %v kept", job.Annotations, job.Spec.Selector)
	}
	want := map[string]string{"team": "research"}
	if diff := cmp.Diff(want, job.Labels); diff != "" {
		t.Errorf("labels (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want, job.Spec.Template.Labels); diff != "" {
		t.Errorf("pod template labels (-want +got):\n%s", diff)
	}
	if job.Name != "shard" || job.Namespace != "research" || *job.Spec.CompletionMode != batchv1.IndexedCompletion || len(job.Spec.Template.Spec.Tolerations) != 1 {
		t.Errorf("spec not kept as written: %s/%s %+v", job.Namespace, job.Name, job.Spec)
	}
	nb, ok := s.Workloads[6].Template.Loaded.Object.(*unstructured.Unstructured)
	if !ok {
		t.Fatalf("the Notebook is a %T", s.Workloads[6].Template.Loaded.Object)
	}
	if nb.GetAPIVersion() != "kubeflow.org/v1" || nb.GetKind() != "Notebook" || nb.Object["status"] != nil {
		t.Errorf("Notebook %s %s, status %v: want kubeflow.org/v1 Notebook without status", nb.GetAPIVersion(), nb.GetKind(), nb.Object["status"])
	}
	if wl, ok := s.Workloads[5].Template.Loaded.Object.(*kueue.Workload); !ok || len(wl.Spec.PodSets) != 2 {
		t.Errorf("the v1beta1 Workload loads as %T", s.Workloads[5].Template.Loaded.Object)
	}
}

// inlineScenario is a scenario whose one stream gives the object of file
// inline.
func inlineScenario(t *testing.T, file string) string {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return inlineTemplate(data)
}

// inlineTemplate is the minimal scenario whose one stream gives object,
// a YAML object, inline.
func inlineTemplate(object []byte) string {
	var b strings.Builder
	for _, line := range strings.Split(strings.TrimRight(string(object), "\n"), "\n") {
		b.WriteString("    " + line + "\n")
	}
	s := strings.Replace(minimal, "  kind: Job\n", "", 1)
	return strings.Replace(s, `  requests: {nvidia.com/gpu: "4"}`+"\n", "  template:\n"+b.String(), 1)
}

// TestTemplateInline: each template given inline loads as its file does.
func TestTemplateInline(t *testing.T) {
	for file, want := range templateRoles {
		t.Run(file, func(t *testing.T) {
			s, err := Load("inline.yaml", "inline", []byte(inlineScenario(t, filepath.Join("testdata/templates", file))))
			if err != nil {
				t.Fatal(err)
			}
			w := s.Workloads[0]
			if w.Kind != want.kind {
				t.Errorf("kind %q, want %q", w.Kind, want.kind)
			}
			lt := w.Template.Loaded
			if got := roles(lt); got != want.roles {
				t.Errorf("roles %q, want %q", got, want.roles)
			}
			if lt.Path != "inline.yaml" || lt.Line != 26 {
				t.Errorf("template at %s:%d, want inline.yaml:26", lt.Path, lt.Line)
			}
			if errs := Validate(s); len(errs) > 0 {
				t.Errorf("a loaded scenario fails Validate: %v", errs)
			}
		})
	}
}

// TestTemplateInlineNumbers: an inline template's numbers keep their
// type: a whole number is not a float.
func TestTemplateInlineNumbers(t *testing.T) {
	s, err := Load("n.yaml", "n", []byte(edit(t, "  kind: Job\n", "", `  requests: {nvidia.com/gpu: "4"}`+"\n", `  template:
    apiVersion: batch/v1
    kind: Job
    spec:
      parallelism: 3
      activeDeadlineSeconds: 9007199254740993
      template:
        spec:
          restartPolicy: OnFailure
          containers: [{name: main, image: busybox, resources: {requests: {nvidia.com/gpu: 1}}}]
`)))
	if err != nil {
		t.Fatal(err)
	}
	job := s.Workloads[0].Template.Loaded.Object.(*batchv1.Job)
	if *job.Spec.Parallelism != 3 || *job.Spec.ActiveDeadlineSeconds != 9007199254740993 {
		t.Errorf("parallelism %d, activeDeadlineSeconds %d", *job.Spec.Parallelism, *job.Spec.ActiveDeadlineSeconds)
	}
}

// TestTemplateKindAgrees: a kind written beside a template that agrees
// with the object is fine; a workload expectation may name the resources
// of the template's pods only.
func TestTemplateKindAgrees(t *testing.T) {
	yaml := edit(t, `  requests: {nvidia.com/gpu: "4"}`+"\n", "  template: testdata/templates/job.yaml\n",
		"  queue: gpu\n", "  queue: gpu\nexpectations:\n- {name: on-a100, workload: {stream: train, admittedOn: {memory: a100}}}\n")
	if _, err := Load("k.yaml", "k", []byte(yaml)); err != nil {
		t.Fatal(err)
	}
	_, err := Load("k.yaml", "k", []byte(strings.Replace(yaml, "{memory: a100}", "{example.com/fpga: a100}", 1)))
	if err == nil || !strings.Contains(err.Error(), "stream train does not request example.com/fpga") {
		t.Errorf("Load = %v, want the expectation's resource refused", err)
	}
}

// TestTemplateSharedFile: streams that name one file share its object,
// and its problems are reported once.
func TestTemplateSharedFile(t *testing.T) {
	shared := "- {name: again, team: research, template: testdata/templates-bad/pods.yaml, queue: gpu}\n"
	yaml := edit(t, "  kind: Job\n", "", `  requests: {nvidia.com/gpu: "4"}`+"\n", "  template: testdata/templates-bad/pods.yaml\n", "  queue: gpu\n", "  queue: gpu\n"+shared)
	_, err := Load("s.yaml", "s", []byte(yaml))
	var e *Error
	if !IsInvalid(err) {
		t.Fatalf("Load = %v, want an *Error", err)
	}
	e = err.(*Error)
	if len(e.Problems) != 2 {
		t.Errorf("%d problems, want the file's 2 once:\n%v", len(e.Problems), err)
	}
	s, err := Load("s.yaml", "s", []byte(strings.ReplaceAll(yaml, "templates-bad/pods.yaml", "templates/pytorchjob.yaml")))
	if err != nil {
		t.Fatal(err)
	}
	if s.Workloads[0].Template.Loaded.Object != s.Workloads[1].Template.Loaded.Object {
		t.Error("two streams of one file have two objects")
	}
}

// TestTemplateNotLoaded: Validate of a templated stream Load did not read
// says so, rather than pass it.
func TestTemplateNotLoaded(t *testing.T) {
	s, err := Load("m.yaml", "m", []byte(minimal))
	if err != nil {
		t.Fatal(err)
	}
	w := &s.Workloads[0]
	w.Requests, w.Replicas, w.Template = nil, nil, &Template{File: "job.yaml"}
	errs := Validate(s)
	if len(errs) != 1 || errs[0].Field != "workloads[0].template" {
		t.Errorf("Validate = %v, want one problem at workloads[0].template", errs)
	}
}
