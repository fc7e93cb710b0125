package manifests

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"

	kftov1 "github.com/kubeflow/training-operator/pkg/apis/kubeflow.org/v1"
	rayv1 "github.com/ray-project/kuberay/ray-operator/apis/ray/v1"
	"go.yaml.in/yaml/v3"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/controller-runtime/pkg/client"
	kueuev1beta1 "sigs.k8s.io/kueue/apis/kueue/v1beta1"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	"github.com/kueue-sim/kueue-sim/scenarios/internal/yamlcheck"
)

// A stream's template is one workload object that each arrival submits:
// LoadTemplate reads a template file, DecodeTemplateObject an inline one.
// The object is decoded strictly into the Go type of its kind, as the
// manifests of queues.manifests are, and cleaned of what a cluster fills
// in, so that an object exported from a cluster loads as it is.

// The API versions of the workload kinds a template may hold.
const (
	batchV1       = "batch/v1"
	kubeflowV1    = "kubeflow.org/v1"
	rayV1         = "ray.io/v1"
	kserveV1beta1 = "serving.kserve.io/v1beta1"
)

// TemplateKinds names the kinds a template may hold.
const TemplateKinds = "Job (batch/v1), PyTorchJob and Notebook (kubeflow.org/v1), RayJob and RayCluster (ray.io/v1), " +
	"InferenceService (serving.kserve.io/v1beta1) and Workload (kueue.x-k8s.io/v1beta2 or v1beta1)"

// templateKinds are the kinds a template may hold, by apiVersion and kind.
// Notebook and InferenceService decode into an *unstructured.Unstructured:
// kueue-sim does not import their Go types, and checks the fields it reads.
var templateKinds = map[string]map[string]kind{
	batchV1: {
		"Job": {namespaced: true, decode: func() client.Object { return &batchv1.Job{} }, check: checkJob},
	},
	kubeflowV1: {
		"PyTorchJob": {namespaced: true, decode: func() client.Object { return &kftov1.PyTorchJob{} }, check: checkPyTorchJob},
		"Notebook": {namespaced: true, decode: unstructuredOf(kubeflowV1, "Notebook"),
			shape: func(m map[string]any, o yamlcheck.Options) field.ErrorList {
				return shapeOf[notebookObject](m, o, field.NewPath("spec", "template", "spec", "containers"),
					"the Notebook's pod runs them: give at least one")
			}},
	},
	rayV1: {
		"RayJob":     {namespaced: true, decode: func() client.Object { return &rayv1.RayJob{} }, check: checkRayJob},
		"RayCluster": {namespaced: true, decode: func() client.Object { return &rayv1.RayCluster{} }, check: checkRayCluster},
	},
	kserveV1beta1: {
		"InferenceService": {namespaced: true, decode: unstructuredOf(kserveV1beta1, "InferenceService"),
			// KServe's PredictorSpec and ModelSpec hold more than kueue-sim
			// reads (maxReplicas, storageUri, ...): kept, not checked.
			open: []string{"spec", "spec.predictor", "spec.predictor.model"},
			refused: map[string]string{
				"spec.transformer": "kueue-sim's fake KServe runs the predictor only: remove the transformer",
				"spec.explainer":   "kueue-sim's fake KServe runs the predictor only: remove the explainer",
			},
			shape: shapeInferenceService},
	},
	kueueV1beta2: {
		"Workload": {namespaced: true, decode: func() client.Object { return &kueue.Workload{} }, check: checkWorkload},
	},
	kueueV1beta1: {
		"Workload": {namespaced: true, decode: func() client.Object { return &kueuev1beta1.Workload{} },
			convert: func(in client.Object) (client.Object, error) {
				out := &kueue.Workload{}
				return out, in.(*kueuev1beta1.Workload).ConvertTo(out)
			}, check: checkWorkload},
	},
}

// templateTable is the kinds of a stream's template.
var templateTable = table{
	kindOf: func(apiVersion, name string) (kind, bool) {
		k, ok := templateKinds[apiVersion][name]
		return k, ok
	},
	whyUnsupported: whyNotTemplate,
	example:        "apiVersion: batch/v1, kind: Job",
	scope:          Object.templateScope,
	clean:          cleanTemplate,
}

// LoadTemplate reads the template file ref, relative to baseDir, and
// decodes its one object (see DecodeTemplate). A problem with the
// reference itself (an empty path, no such file) has neither File nor
// Field: the caller names the reference.
func LoadTemplate(baseDir, ref string) (*Object, []Problem) {
	problem := func(msg string) []Problem { return []Problem{{Item: -1, Msg: msg}} }
	if strings.TrimSpace(ref) == "" {
		return nil, problem("empty: give the path of a YAML file of one object, relative to the scenario's folder, or the object inline")
	}
	path := ref
	if !filepath.IsAbs(path) {
		path = filepath.Join(baseDir, ref)
	}
	info, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, problem(fmt.Sprintf("no such file: %s (the path is relative to the scenario's folder)", path))
	case err != nil:
		return nil, problem(fmt.Sprintf("reading %s: %v", path, err))
	case info.IsDir():
		return nil, problem(fmt.Sprintf("%s is a folder: a template is one file of one object", path))
	}
	data, err := readFile(path)
	if err != nil {
		return nil, problem(fmt.Sprintf("reading %s: %v", path, err))
	}
	return DecodeTemplate(path, data)
}

// DecodeTemplate decodes a template file: exactly one object of a kind
// TemplateKinds names (a second document, or a List, is a problem),
// strictly into its Go type, cleaned of what a cluster fills in. file
// names the input in problems; a file of one object has no document
// index.
func DecodeTemplate(file string, data []byte) (*Object, []Problem) {
	problem := func(line int, msg string) []Problem { return []Problem{{File: file, Line: line, Item: -1, Msg: msg}} }
	if len(data) > MaxFileSize {
		return nil, problem(0, fmt.Sprintf("the file is %d bytes, over the %d-byte limit: a template is one object", len(data), MaxFileSize))
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var root *yaml.Node
	for {
		var n yaml.Node
		err := dec.Decode(&n)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			line, msg := yamlError(err)
			return nil, problem(line, "not valid YAML: "+msg+": check the indentation, colons, quotes and brackets")
		}
		if len(n.Content) == 0 || (n.Content[0].Kind == yaml.ScalarNode && n.Content[0].Tag == "!!null") {
			continue // an empty document: a lone --- or comments
		}
		if root != nil {
			return nil, problem(n.Content[0].Line, "a second document starts here: a template file holds one object; put each in a file of its own and give each stream its own")
		}
		root = n.Content[0]
	}
	if root == nil {
		return nil, problem(0, "the file holds no object: a template is one Kubernetes object, starting with apiVersion and kind")
	}
	tree, err := jsonTree(root)
	if err != nil {
		line, msg := yamlError(err)
		if line == 0 {
			line = root.Line
		}
		return nil, problem(line, msg)
	}
	m, ok := tree.(map[string]any)
	if !ok {
		return nil, problem(root.Line, "the document is not a mapping: a template is a Kubernetes object with apiVersion, kind and spec")
	}
	return decodeTemplate(Source{File: file, Item: -1, Line: root.Line}, yamlcheck.NewIndex(root), m)
}

// DecodeTemplateObject decodes a template given inline: m is the object as
// JSON decodes it, numbers as json.Number. Its problems have neither File
// nor Line: Field is the path in the object (for the object as a whole),
// which the caller places in its own file.
func DecodeTemplateObject(m map[string]any) (*Object, []Problem) {
	return decodeTemplate(Source{Item: -1}, nil, m)
}

func decodeTemplate(src Source, lines *yamlcheck.Index, m map[string]any) (*Object, []Problem) {
	if v, _ := m["kind"].(string); v == "List" || (strings.HasSuffix(v, "List") && m["items"] != nil) {
		at := Object{Source: src, lines: lines}
		return nil, []Problem{at.Problem("kind", "a "+v+" holds several objects: a template is one object; give each stream its own")}
	}
	return templateTable.decodeObject(src, lines, m)
}

// whyNotTemplate is the message on a kind a template may not hold.
func whyNotTemplate(apiVersion, name string) string {
	var served []string
	for _, v := range sortedKeys(templateKinds) {
		if _, ok := templateKinds[v][name]; ok {
			served = append(served, v)
		}
	}
	var why string
	switch {
	case len(served) > 0:
		why = fmt.Sprintf("kueue-sim serves %s as %s: write apiVersion: %s", name, strings.Join(served, " or "), served[len(served)-1])
	case apiVersion == kueueV1beta2 || apiVersion == kueueV1beta1:
		why = "a template is the workload a stream submits; Kueue's other objects go in queues.manifests"
	default:
		why = "a template is the workload object a stream submits"
	}
	return fmt.Sprintf("kind %q (apiVersion %q) is not served as a template: %s; the served kinds are %s", name, apiVersion, why, TemplateKinds)
}

// templateScope checks a template's namespace: kueue-sim names each
// arrival's object itself, and puts it in its stream's team's namespace
// (package scenarios checks that a namespace written agrees).
func (o Object) templateScope(kind) []Problem {
	if ns := o.Obj.GetNamespace(); ns != "" {
		if msgs := validation.IsDNS1123Label(ns); len(msgs) > 0 {
			return []Problem{o.Problem("metadata.namespace", fmt.Sprintf("invalid namespace %q: %s", ns, strings.Join(msgs, "; ")))}
		}
	}
	return nil
}

// jobControllerLabels are the labels Kubernetes gives a Job whose selector
// it generates, and the Job's pod template: exported with the Job, they
// name the uid of a Job that is not there.
var jobControllerLabels = []string{
	batchv1.ControllerUidLabel, batchv1.JobNameLabel,
	"controller-uid", "job-name", // the legacy names
}

// cleanTemplate drops what the cluster fills in (see clean), the kubectl
// last-applied annotation, and a Job's generated selector and its labels.
// An Unstructured object keeps its apiVersion and kind: they are all that
// says what it is.
func cleanTemplate(obj client.Object) {
	if u, ok := obj.(*unstructured.Unstructured); ok {
		gvk := u.GroupVersionKind()
		clean(u)
		u.SetGroupVersionKind(gvk)
		delete(u.Object, "status")
	} else {
		clean(obj)
	}
	if a := obj.GetAnnotations(); a != nil {
		delete(a, corev1.LastAppliedConfigAnnotation)
		if len(a) == 0 {
			a = nil
		}
		obj.SetAnnotations(a)
	}
	if j, ok := obj.(*batchv1.Job); ok && (j.Spec.ManualSelector == nil || !*j.Spec.ManualSelector) {
		j.Spec.Selector = nil
		for _, l := range jobControllerLabels {
			delete(j.Labels, l)
			delete(j.Spec.Template.Labels, l)
		}
		if len(j.Labels) == 0 {
			j.Labels = nil
		}
		if len(j.Spec.Template.Labels) == 0 {
			j.Spec.Template.Labels = nil
		}
	}
}

// unstructuredOf decodes a kind into an *unstructured.Unstructured.
func unstructuredOf(apiVersion, kindName string) func() client.Object {
	return func() client.Object {
		u := &unstructured.Unstructured{}
		u.SetGroupVersionKind(schema.FromAPIVersionAndKind(apiVersion, kindName))
		return u
	}
}

// notebookObject is the part of a Kubeflow Notebook kueue-sim reads: its
// spec is the pod template of its one pod.
type notebookObject struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              struct {
		Template corev1.PodTemplateSpec `json:"template"`
	} `json:"spec"`
	Status map[string]any `json:"status,omitempty"`
}

// inferenceServiceObject is the part of a KServe InferenceService
// kueue-sim reads: the predictor.
type inferenceServiceObject struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              struct {
		Predictor Predictor `json:"predictor"`
	} `json:"spec"`
	Status map[string]any `json:"status,omitempty"`
}

// Predictor is the part of KServe's PredictorSpec (an InferenceService's
// spec.predictor) kueue-sim reads, as its fake KServe does: the pod-spec
// fields inline, minReplicas and the model, whose container the predictor
// pods run first.
type Predictor struct {
	corev1.PodSpec `json:",inline"`
	MinReplicas    *int32          `json:"minReplicas,omitempty"`
	Model          *PredictorModel `json:"model,omitempty"`
}

// PredictorModel is KServe's ModelSpec: a model format and runtime, and
// the container fields inline.
type PredictorModel struct {
	corev1.Container `json:",inline"`
	ModelFormat      struct {
		Name string `json:"name"`
	} `json:"modelFormat"`
	Runtime *string `json:"runtime,omitempty"`
}

// shapeOf checks m against T, the fields kueue-sim reads of an
// unstructured kind, and that the list at containers is not empty.
func shapeOf[T any](m map[string]any, o yamlcheck.Options, containers *field.Path, why string) field.ErrorList {
	errs := yamlcheck.Check(nil, m, reflect.TypeFor[T](), o)
	if len(errs) == 0 {
		if list, _ := lookup(m, containers.String()).([]any); len(list) == 0 {
			errs = append(errs, field.Required(containers, why))
		}
	}
	return errs
}

// shapeInferenceService checks an InferenceService's predictor: the fake
// KServe makes its pods from the model, or from the containers.
func shapeInferenceService(m map[string]any, o yamlcheck.Options) field.ErrorList {
	errs := yamlcheck.Check(nil, m, reflect.TypeFor[inferenceServiceObject](), o)
	pred := field.NewPath("spec", "predictor")
	if _, ok := lookup(m, pred.String()).(map[string]any); !ok {
		if lookup(m, pred.String()) != nil {
			return errs // not a mapping: Check said so
		}
		return append(errs, field.Required(pred, "the InferenceService's predictor: e.g. {model: {modelFormat: {name: sklearn}, resources: {requests: {cpu: \"1\"}}}}"))
	}
	containers, _ := lookup(m, "spec.predictor.containers").([]any)
	if lookup(m, "spec.predictor.model") == nil && len(containers) == 0 {
		errs = append(errs, field.Required(pred.Child("model"), "kueue-sim's fake KServe makes the predictor's pods from spec.predictor.model (or spec.predictor.containers): give one, "+
			"e.g. model: {modelFormat: {name: sklearn}, resources: {requests: {cpu: \"1\"}}}; the per-framework fields (sklearn, pytorch, ...) are not read"))
	}
	if n, ok := lookup(m, "spec.predictor.minReplicas").(json.Number); ok && strings.HasPrefix(string(n), "-") {
		errs = append(errs, bad(pred.Child("minReplicas"), "must not be negative"))
	}
	return errs
}

// lookup is the value at a dotted path of m (no list indices), or nil.
func lookup(m map[string]any, path string) any {
	var v any = m
	for _, step := range strings.Split(path, ".") {
		mm, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = mm[step]
	}
	return v
}

// bad is a problem whose message says it all.
func bad(p *field.Path, msg string) *field.Error {
	return &field.Error{Type: field.ErrorTypeInvalid, Field: p.String(), BadValue: field.OmitValueType{}, Detail: msg}
}

// checkJob refuses what Kubernetes refuses of a Job's pods and counts.
func checkJob(o client.Object) field.ErrorList {
	j := o.(*batchv1.Job)
	sp := field.NewPath("spec")
	pod := sp.Child("template", "spec")
	var errs field.ErrorList
	if len(j.Spec.Template.Spec.Containers) == 0 {
		errs = append(errs, field.Required(pod.Child("containers"), "a Job's pods run at least one container"))
	}
	switch rp := j.Spec.Template.Spec.RestartPolicy; rp {
	case corev1.RestartPolicyNever, corev1.RestartPolicyOnFailure:
	case "":
		errs = append(errs, field.Required(pod.Child("restartPolicy"), "Kubernetes makes an unset restartPolicy Always, which it refuses for a Job: set Never or OnFailure"))
	default:
		errs = append(errs, bad(pod.Child("restartPolicy"), fmt.Sprintf("%s: Kubernetes refuses it for a Job, whose pods end: set Never or OnFailure", rp)))
	}
	for _, n := range []struct {
		name string
		v    *int32
	}{{"parallelism", j.Spec.Parallelism}, {"completions", j.Spec.Completions}} {
		if n.v != nil && *n.v < 0 {
			errs = append(errs, bad(sp.Child(n.name), fmt.Sprintf("%d: must not be negative", *n.v)))
		}
	}
	if j.Spec.CompletionMode != nil && *j.Spec.CompletionMode == batchv1.IndexedCompletion && j.Spec.Completions == nil {
		errs = append(errs, field.Required(sp.Child("completions"), "Kubernetes refuses an Indexed Job without completions: set it, usually to parallelism"))
	}
	return errs
}

// checkPyTorchJob refuses what the training operator's webhook refuses of
// a PyTorchJob's replica specs.
func checkPyTorchJob(o client.Object) field.ErrorList {
	j := o.(*kftov1.PyTorchJob)
	p := field.NewPath("spec", "pytorchReplicaSpecs")
	specs := j.Spec.PyTorchReplicaSpecs
	if len(specs) == 0 {
		return field.ErrorList{field.Required(p, "give the Master replica spec (one pod) and, for more pods, the Worker one")}
	}
	roles := []string{string(kftov1.PyTorchJobReplicaTypeMaster), string(kftov1.PyTorchJobReplicaTypeWorker)}
	types := make([]string, 0, len(specs))
	for rt := range specs {
		types = append(types, string(rt))
	}
	sort.Strings(types)
	var errs field.ErrorList
	for _, rt := range types {
		rp := p.Key(rt)
		if rt != roles[0] && rt != roles[1] {
			msg := fmt.Sprintf("unknown replica type %q: a PyTorchJob has Master and Worker", rt)
			if s := yamlcheck.Closest(rt, roles); s != "" {
				msg += fmt.Sprintf(": write %s", s)
			}
			errs = append(errs, bad(rp, msg))
			continue
		}
		spec := specs[kftov1.ReplicaType(rt)]
		if spec == nil {
			errs = append(errs, field.Required(rp.Child("template"), "the role's pod template"))
			continue
		}
		switch r := spec.Replicas; {
		case r == nil:
		case rt == roles[0] && *r != 1:
			errs = append(errs, bad(rp.Child("replicas"), fmt.Sprintf("%d: a PyTorchJob has one master (the training operator refuses more): make it 1 and move the other pods to Worker", *r)))
		case *r < 1:
			errs = append(errs, bad(rp.Child("replicas"), fmt.Sprintf("%d: the training operator wants at least 1", *r)))
		}
		cp := rp.Child("template", "spec", "containers")
		named := false
		for _, c := range spec.Template.Spec.Containers {
			named = named || c.Name == kftov1.PyTorchJobDefaultContainerName
		}
		if !named {
			errs = append(errs, field.Required(cp, fmt.Sprintf("the training operator runs the container named %q: name one so", kftov1.PyTorchJobDefaultContainerName)))
		}
	}
	return errs
}

// checkRayJob refuses the RayJobs kueue-sim's fake KubeRay does not run,
// and what KubeRay refuses of them.
func checkRayJob(o client.Object) field.ErrorList {
	j := o.(*rayv1.RayJob)
	sp := field.NewPath("spec")
	var errs field.ErrorList
	switch m := j.Spec.SubmissionMode; m {
	case "", rayv1.K8sJobMode, rayv1.SidecarMode:
	case rayv1.HTTPMode, rayv1.InteractiveMode:
		errs = append(errs, bad(sp.Child("submissionMode"), fmt.Sprintf(
			"%s: kueue-sim's fake KubeRay does not submit HTTPMode or InteractiveMode jobs (no Ray dashboard takes them): use K8sJobMode (the default) or SidecarMode", m)))
	default:
		errs = append(errs, bad(sp.Child("submissionMode"), fmt.Sprintf(
			"unknown submission mode %q: KubeRay's are K8sJobMode (the default), SidecarMode, HTTPMode and InteractiveMode, and kueue-sim runs the first two", m)))
	}
	if len(j.Spec.ClusterSelector) > 0 {
		errs = append(errs, bad(sp.Child("clusterSelector"), "kueue-sim makes each RayJob's own Ray cluster, and Kueue does not manage a RayJob that selects an existing one: remove clusterSelector and give rayClusterSpec"))
	}
	if j.Spec.RayClusterSpec == nil {
		errs = append(errs, field.Required(sp.Child("rayClusterSpec"), "the Ray cluster the job runs on: a headGroupSpec and, for more pods, workerGroupSpecs"))
	} else {
		errs = append(errs, checkRayClusterSpec(sp.Child("rayClusterSpec"), j.Spec.RayClusterSpec)...)
	}
	if j.Spec.SubmissionMode == rayv1.SidecarMode {
		if j.Spec.SubmitterPodTemplate != nil {
			errs = append(errs, bad(sp.Child("submitterPodTemplate"), "KubeRay refuses a submitter pod template in SidecarMode, whose submitter is a container of the head pod: remove it"))
		}
		if j.Spec.SubmitterConfig != nil {
			errs = append(errs, bad(sp.Child("submitterConfig"), "KubeRay refuses a submitter configuration in SidecarMode: remove it"))
		}
	}
	return errs
}

// checkRayCluster checks a RayCluster's Ray cluster.
func checkRayCluster(o client.Object) field.ErrorList {
	return checkRayClusterSpec(field.NewPath("spec"), &o.(*rayv1.RayCluster).Spec)
}

// checkRayClusterSpec refuses what KubeRay refuses of a Ray cluster, and a
// worker group whose replicas KubeRay and Kueue would count apart.
func checkRayClusterSpec(p *field.Path, spec *rayv1.RayClusterSpec) field.ErrorList {
	var errs field.ErrorList
	if len(spec.HeadGroupSpec.Template.Spec.Containers) == 0 {
		errs = append(errs, field.Required(p.Child("headGroupSpec", "template", "spec", "containers"), "KubeRay runs the head's Ray container: give at least one"))
	}
	groups := map[string]bool{}
	for i, g := range spec.WorkerGroupSpecs {
		gp := p.Child("workerGroupSpecs").Index(i)
		switch name := strings.ToLower(g.GroupName); {
		case name == "":
			errs = append(errs, field.Required(gp.Child("groupName"), "name the worker group: the name is its pod set's in Kueue's Workload"))
		case groups[name]:
			errs = append(errs, bad(gp.Child("groupName"), fmt.Sprintf("%q names another worker group too: give each group its own name", g.GroupName)))
		}
		groups[strings.ToLower(g.GroupName)] = true
		if len(g.Template.Spec.Containers) == 0 {
			errs = append(errs, field.Required(gp.Child("template", "spec", "containers"), "KubeRay runs the worker's Ray container: give at least one"))
		}
		lo, hi := derefInt32(g.MinReplicas, 0), derefInt32(g.MaxReplicas, 1<<31-1)
		for _, n := range []struct {
			name string
			v    *int32
		}{{"replicas", g.Replicas}, {"minReplicas", g.MinReplicas}, {"maxReplicas", g.MaxReplicas}, {"numOfHosts", &g.NumOfHosts}} {
			if n.v != nil && *n.v < 0 {
				errs = append(errs, bad(gp.Child(n.name), fmt.Sprintf("%d: must not be negative", *n.v)))
			}
		}
		switch {
		case g.Replicas == nil && lo > 0:
			errs = append(errs, field.Required(gp.Child("replicas"), fmt.Sprintf(
				"the API server sets an unset replicas to 0, which Kueue counts, while KubeRay starts minReplicas (%d) pods: set replicas", lo)))
		case lo > hi:
			errs = append(errs, bad(gp.Child("minReplicas"), fmt.Sprintf("%d is over maxReplicas %d: KubeRay refuses it", lo, hi)))
		case g.Replicas != nil && (*g.Replicas < lo || *g.Replicas > hi):
			errs = append(errs, bad(gp.Child("replicas"), fmt.Sprintf(
				"%d is outside minReplicas %d and maxReplicas %d: KubeRay would run a number of pods that Kueue does not count; keep replicas within them", *g.Replicas, lo, hi)))
		}
	}
	return errs
}

func derefInt32(p *int32, def int32) int32 {
	if p == nil {
		return def
	}
	return *p
}

// checkWorkload checks a raw Workload's pod sets as its CRD does.
func checkWorkload(o client.Object) field.ErrorList {
	wl := o.(*kueue.Workload)
	p := field.NewPath("spec", "podSets")
	const maxPodSets = 8
	switch n := len(wl.Spec.PodSets); {
	case n == 0:
		return field.ErrorList{field.Required(p, "a Workload has 1 to 8 pod sets: give at least one, e.g. {name: main, count: 1, template: {spec: {containers: [...]}}}")}
	case n > maxPodSets:
		return field.ErrorList{field.TooMany(p, n, maxPodSets)}
	}
	var errs field.ErrorList
	names := map[kueue.PodSetReference]bool{}
	for i, ps := range wl.Spec.PodSets {
		pp := p.Index(i)
		name := ps.Name
		if name == "" {
			name = kueue.DefaultPodSetName
		}
		if names[name] {
			errs = append(errs, bad(pp.Child("name"), fmt.Sprintf("%q names another pod set too: give each its own name", name)))
		}
		names[name] = true
		if ps.Count < 0 {
			errs = append(errs, bad(pp.Child("count"), fmt.Sprintf("%d: must not be negative", ps.Count)))
		}
		if len(ps.Template.Spec.Containers) == 0 {
			errs = append(errs, field.Required(pp.Child("template", "spec", "containers"), "the pod set's pods run at least one container"))
		}
	}
	return errs
}
