package kube

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	batchv1 "k8s.io/api/batch/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	infrav1 "github.com/kueue-sim/kueue-sim/api/infrastructure/v1"
	"github.com/kueue-sim/kueue-sim/scenarios"
)

const (
	ownersWorkloads = "testdata/owners/workloads.yaml"
	ownersDump      = "testdata/owners/owners.yaml"
)

// ownersSummary is what the import of testdata/owners says of it.
const ownersSummary = "7 of 10 workloads replay their owner's manifest (5 templates in templates/); " +
	"3 are rebuilt from their pod sets (no owner of a kind the import reads: 1; owner gone: 2)"

// The Workloads whose owner the dump holds replay it: a template per
// distinct spec (the Jobs train-a and train-b share one), cleaned of what
// the cluster and the operators filled in; the others are rebuilt from
// their pod sets, and the scenario says how many.
func TestFromWorkloadFilesOwners(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "owners")
	imp, err := FromWorkloadFiles([]string{ownersWorkloads}, WorkloadsOptions{Dir: dir, Owners: []string{ownersDump}})
	if err != nil {
		t.Fatal(err)
	}
	if err := imp.Write(dir); err != nil {
		t.Fatal(err)
	}
	if got := imp.OwnersLine(); got != ownersSummary {
		t.Errorf("summary:\n got %s\nwant %s", got, ownersSummary)
	}
	data, err := os.ReadFile(filepath.Join(dir, ScenarioFile))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "\n# "+ownersSummary+".\n") {
		t.Errorf("the top comment lacks the summary:\n%s", data)
	}
	for _, want := range []string{
		"--owners: left out 1 v1 ConfigMap",
		"the 2 Workloads of InferenceService analytics/serve (one per predictor pod) replay as one InferenceService",
	} {
		if !strings.Contains(strings.Join(imp.Notes, "\n"), want) {
			t.Errorf("notes lack %q:\n%s", want, strings.Join(imp.Notes, "\n"))
		}
	}
	checkGolden(t, dir, "owners")
	checkTemplatePodSets(t, imp, dir)

	job := readFile(t, filepath.Join(dir, TemplatesDir, "research-job-train-a.yaml"))
	for _, gone := range []string{
		"status:", "uid:", "resourceVersion:", "generation:", "creationTimestamp:", "managedFields:",
		"last-applied", "kueue.x-k8s.io/queue-name", "kueue.x-k8s.io/priority-class", "controller-uid", "job-name",
		"selector:", "suspend:", "name: train-a", "namespace:",
		"nodeSelector:", "key: nvidia.com/gpu", // Kueue's, at admission
	} {
		if strings.Contains(job, gone) {
			t.Errorf("the Job's template keeps %q:\n%s", gone, job)
		}
	}
	for _, kept := range []string{
		"kueue.x-k8s.io/job-min-parallelism", "app.kubernetes.io/part-of: llm", "app: train", "key: team",
		"image: registry.example.com/llm/finetune:3.1", "WANDB_API_KEY", "command:", "args:", "envFrom:",
		"the spec of Job research/train-a; alike: Job research/train-b.",
	} {
		if !strings.Contains(job, kept) {
			t.Errorf("the Job's template lacks %q:\n%s", kept, job)
		}
	}
}

// checkTemplatePodSets checks that each Workload replayed from its owner's
// manifest gets the same pod sets (counts and per-pod requests, per role)
// from the template, as the scenario loader reads it, as Kueue gave it: an
// InferenceService's Workloads (one per predictor pod) together.
func checkTemplatePodSets(t *testing.T, imp *Import, dir string) {
	t.Helper()
	s, err := scenarios.LoadFile(filepath.Join(dir, ScenarioFile))
	if err != nil {
		t.Fatal(err)
	}
	loaded := map[string]*scenarios.LoadedTemplate{}
	for _, st := range s.Workloads {
		if st.Template != nil {
			if st.Template.Loaded == nil {
				t.Fatalf("stream %s: template %s not loaded", st.Name, st.Template.File)
			}
			loaded[st.Template.File] = st.Template.Loaded
		}
	}
	wls, err := ReadWorkloads(ownersWorkloads)
	if err != nil {
		t.Fatal(err)
	}
	type role struct {
		count    int32
		requests string
	}
	checked := 0
	for i := range wls {
		wl := &wls[i]
		ref := ownerOf(wl)
		var tmpl *ownerTemplate
		for _, tt := range imp.Templates {
			for _, o := range tt.Owners {
				if ref != nil && o == ref.String() {
					tmpl = tt
				}
			}
		}
		if tmpl == nil || (ref.uid != "" && ref.uid == "r0") {
			continue
		}
		lt := loaded[tmpl.File]
		if lt == nil {
			t.Errorf("%s/%s: no stream names %s", wl.Namespace, wl.Name, tmpl.File)
			continue
		}
		want, got := map[string]role{}, map[string]role{}
		for _, ps := range wl.Spec.PodSets {
			if tmpl.Kind == scenarios.KindRayJob && ps.Name == podSetSubmitter {
				continue
			}
			n := ps.Count
			if tmpl.Kind == scenarios.KindInferenceService {
				n = 2 // the InferenceService's two predictor pods, a Workload each
			}
			want[string(ps.Name)] = role{n, requestsString(podRequests(&ps.Template.Spec))}
		}
		for _, ps := range lt.PodSets() {
			got[ps.Name] = role{ps.Count, requestsString(podRequests(&ps.Template.Spec))}
		}
		if diff := cmp.Diff(want, got, cmp.AllowUnexported(role{})); diff != "" {
			t.Errorf("%s/%s (%s): pod sets (-Workload +template):\n%s", wl.Namespace, wl.Name, tmpl.File, diff)
		}
		checked++
	}
	if checked != 7 {
		t.Errorf("checked %d Workloads against their templates, want 7", checked)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// --redact drops the containers' env, envFrom, command and args, and a
// RayJob's entrypoint and runtime environment; images stay.
func TestOwnersRedact(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "redacted")
	imp, err := FromWorkloadFiles([]string{ownersWorkloads}, WorkloadsOptions{Dir: dir, Owners: []string{ownersDump}, Redact: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := imp.Write(dir); err != nil {
		t.Fatal(err)
	}
	files := imp.TemplateFiles()
	if len(files) != 5 {
		t.Fatalf("templates %v", files)
	}
	for _, f := range files {
		data := readFile(t, filepath.Join(dir, f))
		body := data[strings.Index(data, "\napiVersion:"):]
		for _, gone := range []string{"env:", "envFrom:", "command:", "args:", "entrypoint:", "runtimeEnvYAML:", "s3cr3t", "WANDB_API_KEY"} {
			if strings.Contains(body, gone) {
				t.Errorf("%s keeps %q:\n%s", f, gone, data)
			}
		}
		if !strings.Contains(body, "image:") && !strings.Contains(f, "inferenceservice") {
			t.Errorf("%s lost its images:\n%s", f, data)
		}
		if !strings.Contains(data, "(--redact)") {
			t.Errorf("%s does not say it is redacted:\n%s", f, data)
		}
	}
	checkTemplatePodSets(t, imp, dir)
}

// ownerObjects are the objects of testdata/owners/owners.yaml.
func ownerObjects(t *testing.T) []client.Object {
	t.Helper()
	o, _, err := readOwners([]string{ownersDump})
	if err != nil {
		t.Fatal(err)
	}
	var out []client.Object
	for _, objs := range o.objects {
		for _, obj := range objs {
			m, err := copyJSON(obj)
			if err != nil {
				t.Fatal(err)
			}
			delete(m["metadata"].(map[string]any), "managedFields")
			out = append(out, &unstructured.Unstructured{Object: m})
		}
	}
	return out
}

// listCall is one List call of an import: the list's kind and namespace.
type listCall struct{ kind, namespace string }

// ownersCluster is a fake cluster of testdata/owners: its Workloads and
// owners; it records the List calls and refuses those of forbid.
func ownersCluster(t *testing.T, calls *[]listCall, forbid ...string) client.Reader {
	t.Helper()
	s, err := Scheme()
	if err != nil {
		t.Fatal(err)
	}
	for _, add := range []func(*runtime.Scheme) error{infrav1.AddToScheme, batchv1.AddToScheme} {
		if err := add(s); err != nil {
			t.Fatal(err)
		}
	}
	objs := append(ownerObjects(t), node("a100-0", "NVIDIA-A100-SXM4-80GB", 8, nil), node("cpu-0", "", 0, nil))
	wls, err := ReadWorkloads(ownersWorkloads)
	if err != nil {
		t.Fatal(err)
	}
	for i := range wls {
		objs = append(objs, &wls[i])
	}
	guard := listOnly(t, forbid...)
	return fake.NewClientBuilder().WithScheme(s).WithObjects(objs...).WithInterceptorFuncs(interceptor.Funcs{
		Get: guard.Get,
		List: func(ctx context.Context, c client.WithWatch, list client.ObjectList, opts ...client.ListOption) error {
			lo := &client.ListOptions{}
			lo.ApplyOptions(opts)
			*calls = append(*calls, listCall{list.GetObjectKind().GroupVersionKind().Kind, lo.Namespace})
			return guard.List(ctx, c, list, opts...)
		},
	}).Build()
}

// sim import cluster lists the owners per kind in the namespaces of the
// replayed Workloads, and writes the same templates as an import of the
// same objects from dumps.
func TestFromClusterOwners(t *testing.T) {
	var calls []listCall
	dir := filepath.Join(t.TempDir(), "cluster")
	imp, err := FromCluster(context.Background(), ownersCluster(t, &calls), ClusterOptions{Now: now, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if err := imp.Write(dir); err != nil {
		t.Fatal(err)
	}
	if got := imp.OwnersLine(); got != ownersSummary {
		t.Errorf("summary:\n got %s\nwant %s", got, ownersSummary)
	}
	var owners []string
	for _, c := range calls {
		switch c.kind {
		case "PodList", "SecretList":
			t.Errorf("the import listed %s", c.kind)
		case "JobList", "PyTorchJobList", "RayJobList", "RayClusterList", "NotebookList", "InferenceServiceList":
			owners = append(owners, c.kind+" in "+c.namespace)
		}
	}
	sort.Strings(owners)
	want := []string{
		"InferenceServiceList in analytics", "JobList in research", "NotebookList in analytics",
		"PyTorchJobList in research", "RayJobList in analytics",
	}
	if diff := cmp.Diff(want, owners); diff != "" {
		t.Errorf("owner lists (-want +got):\n%s", diff)
	}
	offline := filepath.Join(t.TempDir(), "offline")
	imp2, err := FromWorkloadFiles([]string{ownersWorkloads}, WorkloadsOptions{Dir: offline, Owners: []string{ownersDump}})
	if err != nil {
		t.Fatal(err)
	}
	if err := imp2.Write(offline); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(imp2.TemplateFiles(), imp.TemplateFiles()); diff != "" {
		t.Fatalf("template files (-offline +cluster):\n%s", diff)
	}
	for _, f := range imp.TemplateFiles() {
		a, b := readFile(t, filepath.Join(offline, f)), readFile(t, filepath.Join(dir, f))
		if diff := cmp.Diff(withoutComments(a), withoutComments(b)); diff != "" {
			t.Errorf("%s (-offline +cluster):\n%s", f, diff)
		}
	}
	checkTemplatePodSets(t, imp, dir)
}

func withoutComments(s string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// An owner kind the import may not list is a note, not an incomplete
// import: its Workloads are rebuilt from their pod sets, counted so.
func TestFromClusterOwnersForbidden(t *testing.T) {
	var calls []listCall
	dir := filepath.Join(t.TempDir(), "cluster")
	imp, err := FromCluster(context.Background(), ownersCluster(t, &calls, "rayjobs.ray.io"), ClusterOptions{Now: now, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if err := imp.Write(dir); err != nil {
		t.Fatal(err)
	}
	if imp.Incomplete() {
		t.Errorf("incomplete: %v", imp.Missing)
	}
	want := "6 of 10 workloads replay their owner's manifest (4 templates in templates/); 4 are rebuilt from their pod sets " +
		"(no owner of a kind the import reads: 1; owner gone: 1; owner's kind forbidden to list: 2)"
	if got := imp.OwnersLine(); got != want {
		t.Errorf("summary:\n got %s\nwant %s", got, want)
	}
	if !strings.Contains(strings.Join(imp.Notes, "\n"), "forbidden: list rayjobs.ray.io in analytics (") {
		t.Errorf("notes:\n%s", strings.Join(imp.Notes, "\n"))
	}
}

// A Workload whose owner's manifest the scenario loader refuses is rebuilt
// from its pod sets, with a note naming the field.
func TestOwnerManifestRefused(t *testing.T) {
	dir := t.TempDir()
	owners := filepath.Join(dir, "owners.yaml")
	data := strings.Replace(readFile(t, ownersDump), "submissionMode: SidecarMode", "submissionMode: HTTPMode", 1)
	if err := os.WriteFile(owners, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	imp, err := FromWorkloadFiles([]string{ownersWorkloads}, WorkloadsOptions{Dir: out, Owners: []string{owners}})
	if err != nil {
		t.Fatal(err)
	}
	if err := imp.Write(out); err != nil {
		t.Fatal(err)
	}
	want := "owner's manifest does not load: 1"
	if !strings.Contains(imp.OwnersLine(), want) {
		t.Errorf("summary %q lacks %q", imp.OwnersLine(), want)
	}
	if !strings.Contains(strings.Join(imp.Notes, "\n"), "RayJob analytics/infer: the scenario loader refuses its manifest (") ||
		!strings.Contains(strings.Join(imp.Notes, "\n"), "HTTPMode") {
		t.Errorf("notes:\n%s", strings.Join(imp.Notes, "\n"))
	}
}

func TestReadOwnersBadInput(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ content, want string }{
		{"apiVersion: v1\nkind: List\nitems:\n- [x\n", "owners.yaml:1: not YAML or JSON"},
		{"# nothing\n", "owners.yaml: no objects in the file"},
		{"apiVersion: v1\nkind: List\nitems: 3\n", "owners.yaml:1: items is not a list"},
	} {
		path := filepath.Join(dir, "owners.yaml")
		if err := os.WriteFile(path, []byte(tc.content), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := FromWorkloadFiles([]string{ownersWorkloads}, WorkloadsOptions{Owners: []string{path}})
		if err == nil || !IsInputError(err) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want an InputError containing %q", tc.content, err, tc.want)
		}
	}
}

func TestOwnerSummaryString(t *testing.T) {
	for _, tc := range []struct {
		s    OwnerSummary
		want string
	}{
		{OwnerSummary{Templated: 12, Rebuilt: 28, Why: map[string]int{rebuiltGone: 28}},
			"12 of 40 workloads replay their owner's manifest; 28 are rebuilt from their pod sets (owner gone)"},
		{OwnerSummary{Templated: 1, Templates: 1}, "1 of 1 workload replays its owner's manifest (1 template in templates/)"},
		{OwnerSummary{Templated: 0, Rebuilt: 1, Why: map[string]int{rebuiltNoOwner: 1}},
			"0 of 1 workload replays its owner's manifest; 1 is rebuilt from its pod sets (no owner of a kind the import reads)"},
		{OwnerSummary{}, ""},
	} {
		if got := tc.s.String(); got != tc.want {
			t.Errorf("got  %s\nwant %s", got, tc.want)
		}
	}
}
