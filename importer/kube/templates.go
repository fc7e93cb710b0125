package kube

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"sigs.k8s.io/controller-runtime/pkg/client"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
	"sigs.k8s.io/yaml"

	"github.com/kueue-sim/kueue-sim/scenarios"
	"github.com/kueue-sim/kueue-sim/scenarios/manifests"
)

// TemplatesDir is the folder, beside scenario.yaml, of the owners'
// manifests that the streams name as their templates.
const TemplatesDir = "templates"

// ownerTemplate is one distinct owner spec, written once as a template
// file that the streams of its Workloads name.
type ownerTemplate struct {
	// File is the template's path relative to the import's folder,
	// slash-separated: templates/<namespace>-<kind>-<name>.yaml after the
	// first of Owners.
	File string
	// Kind is the object's stream kind.
	Kind scenarios.WorkloadKind
	// Object is the cleaned object, as written.
	Object map[string]any
	// Owners are the objects whose spec it is: "Kind namespace/name",
	// sorted.
	Owners []string

	typ  ownerType
	hash string
	// decoded is the object as the scenario loader decodes it.
	decoded client.Object
	// first is the owner the file is named after.
	first ownerRef
}

// OwnerSummary says how many replayed Workloads replay their owner's
// manifest, and why the others are rebuilt from their pod sets.
type OwnerSummary struct {
	// Templated Workloads replay their owner's manifest; Rebuilt ones are
	// rebuilt from their pod sets.
	Templated, Rebuilt int
	// Why counts the rebuilt ones by reason ("owner gone", ...).
	Why map[string]int
	// Templates is the number of template files.
	Templates int
}

// String is the summary's sentence: "12 of 40 workloads replay their
// owner's manifest; 28 are rebuilt from their pod sets (owner gone)".
func (s *OwnerSummary) String() string {
	total := s.Templated + s.Rebuilt
	if total == 0 {
		return ""
	}
	out := fmt.Sprintf("%d of %s replay their owner's manifest", s.Templated, plural(total, "workload"))
	if total == 1 {
		out = fmt.Sprintf("%d of 1 workload replays its owner's manifest", s.Templated)
	}
	if s.Templates > 0 {
		out += fmt.Sprintf(" (%s in %s/)", plural(s.Templates, "template"), TemplatesDir)
	}
	if s.Rebuilt == 0 {
		return out
	}
	why := sortedKeys(s.Why)
	if len(why) > 1 {
		for i, r := range why {
			why[i] = fmt.Sprintf("%s: %d", r, s.Why[r])
		}
	}
	rebuilt := "are rebuilt from their pod sets"
	if s.Rebuilt == 1 {
		rebuilt = "is rebuilt from its pod sets"
	}
	return fmt.Sprintf("%s; %d %s (%s)", out, s.Rebuilt, rebuilt, strings.Join(why, "; "))
}

// useOwners makes each record whose owner o holds replay that owner's
// manifest: its template is the owner cleaned (cleanOwner), each distinct
// one written once. The others are rebuilt from their pod sets, counted in
// imp.Owners by reason; an owner whose manifest the scenario loader would
// refuse is said in a note.
func (imp *Import) useOwners(recs []record, o *owners, redact bool) {
	sum := &OwnerSummary{Why: map[string]int{}}
	byHash := map[string]*ownerTemplate{}
	refused := map[string]string{} // hash → why the loader refuses it
	noted := map[string]bool{}
	rebuilt := func(why string) {
		sum.Rebuilt++
		sum.Why[why]++
	}
	for i := range recs {
		r := &recs[i]
		obj, why := o.find(r.owner)
		if obj == nil {
			rebuilt(why)
			continue
		}
		t, err := newOwnerTemplate(r, obj, redact)
		if err != nil {
			rebuilt(rebuiltUnloadable)
			if !noted[r.owner.String()] {
				noted[r.owner.String()] = true
				imp.Notes = append(imp.Notes, fmt.Sprintf("%s: %v: its Workloads are rebuilt from their pod sets", r.owner, err))
			}
			continue
		}
		if msg, seen := refused[t.hash]; seen && msg != "" {
			rebuilt(rebuiltUnloadable)
			continue
		}
		if prev := byHash[t.hash]; prev != nil {
			prev.addOwner(*r.owner)
			t = prev
		} else {
			if msg := loads(t); msg != "" {
				refused[t.hash] = msg
				rebuilt(rebuiltUnloadable)
				imp.Notes = append(imp.Notes, fmt.Sprintf("%s: the scenario loader refuses its manifest (%s): its Workloads are rebuilt from their pod sets", r.owner, msg))
				continue
			}
			refused[t.hash] = ""
			byHash[t.hash] = t
		}
		if note := countsDiffer(t, r); note != "" && !noted[r.owner.String()] {
			noted[r.owner.String()] = true
			imp.Notes = append(imp.Notes, note)
		}
		r.Template = t
		sum.Templated++
	}
	imp.Templates = nameTemplates(byHash)
	sum.Templates = len(imp.Templates)
	imp.Owners = sum
}

// addOwner records that o's spec is t's too.
func (t *ownerTemplate) addOwner(o ownerRef) {
	name := o.String()
	for _, n := range t.Owners {
		if n == name {
			return
		}
	}
	t.Owners = append(t.Owners, name)
	sort.Strings(t.Owners)
	if o.namespace+"/"+o.name < t.first.namespace+"/"+t.first.name {
		t.first = o
	}
}

// nameTemplates names each template's file after its first owner
// (templates/<namespace>-<kind>-<name>.yaml, a number added when two
// would share a name), sorted by file.
func nameTemplates(byHash map[string]*ownerTemplate) []*ownerTemplate {
	list := make([]*ownerTemplate, 0, len(byHash))
	for _, t := range byHash {
		list = append(list, t)
	}
	sort.Slice(list, func(i, j int) bool {
		a, b := list[i].first, list[j].first
		if a.kind.kind != b.kind.kind {
			return a.kind.kind < b.kind.kind
		}
		if a.namespace+"/"+a.name != b.namespace+"/"+b.name {
			return a.namespace+"/"+a.name < b.namespace+"/"+b.name
		}
		return list[i].hash < list[j].hash
	})
	used := map[string]bool{}
	for _, t := range list {
		base := sanitize(t.first.namespace + "-" + strings.ToLower(t.typ.kind) + "-" + t.first.name)
		name := base
		for n := 2; used[name]; n++ {
			name = fmt.Sprintf("%s-%d", base, n)
		}
		used[name] = true
		t.File = path.Join(TemplatesDir, name+".yaml")
	}
	sort.Slice(list, func(i, j int) bool { return list[i].File < list[j].File })
	return list
}

// newOwnerTemplate is the template of r's owner obj: cleanOwner's copy,
// and the hash that tells distinct specs apart.
func newOwnerTemplate(r *record, obj map[string]any, redact bool) (*ownerTemplate, error) {
	m, err := copyJSON(obj)
	if err != nil {
		return nil, err
	}
	if err := cleanOwner(m, r.owner.kind, r.podSets, redact); err != nil {
		return nil, err
	}
	canon, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(canon)
	return &ownerTemplate{
		Kind: r.owner.kind.stream, Object: m, Owners: []string{r.owner.String()},
		typ: r.owner.kind, hash: hex.EncodeToString(sum[:]), first: *r.owner,
	}, nil
}

// copyJSON is a deep copy of obj through JSON (numbers as int64 or
// float64).
func copyJSON(obj map[string]any) (map[string]any, error) {
	data, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	var out map[string]any
	if err := utiljson.Unmarshal(data, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// YAML is the template file: a comment naming the owners, then the object.
func (t *ownerTemplate) YAML(command string, redacted bool) ([]byte, error) {
	body, err := yaml.Marshal(t.Object)
	if err != nil {
		return nil, fmt.Errorf("writing %s: %w", t.File, err)
	}
	var head strings.Builder
	fmt.Fprintf(&head, "# Imported by sim import %s: the spec of %s", command, t.Owners[0])
	if others := t.Owners[1:]; len(others) > 0 {
		if len(others) > 5 {
			others = append(append([]string(nil), others[:5]...), fmt.Sprintf("and %d more", len(others)-5))
		}
		fmt.Fprintf(&head, "; alike: %s", strings.Join(others, ", "))
	}
	head.WriteString(".\n# What the cluster and the operators filled in is removed")
	if redacted {
		head.WriteString("; and the containers' env, envFrom, command and args (--redact)")
	}
	head.WriteString(".\n")
	return append([]byte(head.String()), body...), nil
}

// loads says why the scenario loader would refuse the template ("" when
// it would not): strict decoding, what the kind's operator refuses, and
// the number of pods.
func loads(t *ownerTemplate) string {
	data, err := yaml.Marshal(t.Object)
	if err != nil {
		return err.Error()
	}
	obj, probs := manifests.DecodeTemplate(t.first.String(), data)
	if len(probs) > 0 {
		msgs := make([]string, len(probs))
		for i, p := range probs {
			msgs[i] = p.Msg
			if p.Field != "" {
				msgs[i] = p.Field + ": " + p.Msg
			}
		}
		return strings.Join(msgs, "; ")
	}
	t.decoded = obj.Obj
	var pods int64
	for _, ps := range (&scenarios.LoadedTemplate{Object: obj.Obj}).PodSets() {
		pods += int64(ps.Count)
	}
	switch {
	case pods < 1:
		return "it runs no pod"
	case pods > scenarios.MaxReplicas:
		return fmt.Sprintf("it runs %d pods, over kueue-sim's limit of %d", pods, scenarios.MaxReplicas)
	}
	return ""
}

// countsDiffer notes when the template's roles run other numbers of pods
// than r's Workload counted (a Ray cluster an autoscaler resized, a Job's
// parallelism changed since): "" when they agree. A RayJob's submitter is
// left out: the replay adds it as the served Kueue counts it.
func countsDiffer(t *ownerTemplate, r *record) string {
	if t.decoded == nil || t.Kind == scenarios.KindInferenceService {
		// Each predictor pod is a Workload of its own (foldOwners).
		return ""
	}
	want := map[string]int32{}
	for _, ps := range r.podSets {
		if t.Kind == scenarios.KindRayJob && string(ps.Name) == podSetSubmitter {
			continue
		}
		want[string(ps.Name)] = ps.Count
	}
	got := map[string]int32{}
	for _, ps := range (&scenarios.LoadedTemplate{Object: t.decoded}).PodSets() {
		got[ps.Name] = ps.Count
	}
	if len(want) == 1 && len(got) == 1 {
		// One role: Kueue may name it otherwise (a StatefulSet's, a
		// pod's).
		for k, v := range got {
			for name := range want {
				delete(got, k)
				got[name] = v
			}
		}
	}
	var diffs []string
	for _, name := range sortedKeys(want) {
		if got[name] != want[name] {
			diffs = append(diffs, fmt.Sprintf("%s %d pods, its Workload %d", name, got[name], want[name]))
		}
	}
	if len(diffs) == 0 {
		return ""
	}
	return fmt.Sprintf("%s: the manifest runs %s (changed since Kueue counted it): the replay runs the manifest's", r.owner, strings.Join(diffs, "; "))
}

// Labels and annotations an owner's template keeps of Kueue's own: the
// knobs a user sets that change how Kueue admits the object.
var kueueKnobs = map[string]bool{
	jobMinParallelism:                      true,
	jobCompletionsEqualParallelism:         true,
	"kueue.x-k8s.io/max-exec-time-seconds": true,
}

// Kueue's annotations of a Job it may admit partially.
const (
	jobMinParallelism              = "kueue.x-k8s.io/job-min-parallelism"
	jobCompletionsEqualParallelism = "kueue.x-k8s.io/job-completions-equal-parallelism"
)

// Prefixes of the labels and annotations an owner's template drops:
// Kueue's (the queue label and priority class the stream carries), and
// kueue-sim's own (an object kueue-sim replayed).
var droppedPrefixes = []string{"kueue.x-k8s.io/", "kueue-sim.io/"}

// droppedAnnotations are annotations controllers set at run time.
var droppedAnnotations = []string{
	lastApplied,
	"batch.kubernetes.io/job-tracking",
	"kubeflow-resource-stopped", // a stopped Notebook
	"notebooks.kubeflow.org/last-activity",
	"notebooks.kubeflow.org/last_activity_check_timestamp",
}

// jobLabels are the labels Kubernetes gives a Job whose selector it
// generates, and its pod template: they name the old Job's uid.
var jobLabels = []string{"batch.kubernetes.io/controller-uid", "batch.kubernetes.io/job-name", "controller-uid", "job-name"}

// kueueSimGate is the scheduling gate kueue-sim's engine puts on the pods
// of what it submits; kueueTopologyGate the one Kueue adds for
// topology-aware scheduling at admission.
const (
	kueueSimGate      = "kueue-sim.io/instant"
	kueueTopologyGate = "kueue.x-k8s.io/topology"
	multiKueue        = "kueue.x-k8s.io/multikueue"
)

// cleanOwner makes m, a copy of an owner of kind k whose Workload has
// podSets, a template: the object as the team submitted it.
//
//   - metadata keeps only labels and annotations, without Kueue's (but
//     kueueKnobs), kueue-sim's, kubectl's last-applied, a Job's
//     controller-uid labels and what the notebook controller sets: the
//     name, namespace, uid, resourceVersion, generation,
//     creationTimestamp, managedFields, ownerReferences and finalizers go;
//   - status goes;
//   - what Kueue sets to run it goes: spec.suspend (runPolicy.suspend of
//     a PyTorchJob), managedBy when MultiKueue's; a Job Kueue may admit
//     partially gets back the parallelism its Workload's pod set asked
//     for (and completions, when Kueue keeps them equal); on each role's pod
//     template the labels, annotations, node selector, tolerations and
//     scheduling gates Kueue injects at admission are restored from the
//     Workload's pod set of that role (as Kueue restores them when it
//     suspends the object again);
//   - a Job's generated selector and controller-uid labels go (unless
//     manualSelector), kueue-sim's labels and scheduling gate on the pod
//     templates, and Kueue's topology gate;
//   - with redact, every container's and init container's env, envFrom,
//     command and args, and a RayJob's entrypoint and runtimeEnvYAML.
func cleanOwner(m map[string]any, k ownerType, podSets []kueue.PodSet, redact bool) error {
	delete(m, "status")
	m["apiVersion"], m["kind"] = k.gv.String(), k.kind
	meta, _ := m["metadata"].(map[string]any)
	keep := map[string]any{}
	for _, f := range []string{"labels", "annotations"} {
		if v, ok := meta[f].(map[string]any); ok {
			keep[f] = v
		}
	}
	cleanMeta(keep, k.kind == "Job")
	if len(keep) > 0 {
		m["metadata"] = keep
	} else {
		delete(m, "metadata")
	}
	spec, _ := m["spec"].(map[string]any)
	if spec == nil {
		return fmt.Errorf("it has no spec")
	}
	switch k.kind {
	case "Job":
		delete(spec, "suspend")
		if manual, _ := spec["manualSelector"].(bool); !manual {
			delete(spec, "selector")
		}
		dropIf(spec, "managedBy", multiKueue)
	case "PyTorchJob":
		if rp, ok := spec["runPolicy"].(map[string]any); ok {
			delete(rp, "suspend")
			dropIf(rp, "managedBy", multiKueue)
		}
	case "RayJob":
		delete(spec, "suspend")
		dropIf(spec, "managedBy", multiKueue)
		if redact {
			delete(spec, "entrypoint")
			delete(spec, "runtimeEnvYAML")
		}
	case "RayCluster":
		delete(spec, "suspend")
		dropIf(spec, "managedBy", multiKueue)
	}
	byName := map[string]*kueue.PodSet{}
	for i := range podSets {
		byName[string(podSets[i].Name)] = &podSets[i]
	}
	if ps := byName[string(kueue.DefaultPodSetName)]; k.kind == "Job" && ps != nil && ps.MinCount != nil {
		// Admitted partially, the Job runs fewer pods than it asked for:
		// Kueue's pod set keeps what it asked for.
		spec["parallelism"] = int64(ps.Count)
		if ann, _ := keep["annotations"].(map[string]any); ann[jobCompletionsEqualParallelism] == "true" {
			spec["completions"] = int64(ps.Count)
		}
	}
	for _, pt := range podTemplatesOf(m, k.kind) {
		if pt.meta != nil {
			if ps := byName[pt.podSet]; ps != nil && k.kind != "Notebook" {
				if err := restorePodSetInfo(pt, ps); err != nil {
					return err
				}
			}
			cleanPodMeta(pt, k.kind == "Job")
		}
		gates, _ := pt.spec["schedulingGates"].([]any)
		kept := gates[:0:0]
		for _, g := range gates {
			if gm, ok := g.(map[string]any); ok && (gm["name"] == kueueSimGate || gm["name"] == kueueTopologyGate) {
				continue
			}
			kept = append(kept, g)
		}
		setOrDelete(pt.spec, "schedulingGates", kept, len(kept) > 0)
		if redact {
			for _, list := range []string{"containers", "initContainers"} {
				cs, _ := pt.spec[list].([]any)
				for _, c := range cs {
					if cm, ok := c.(map[string]any); ok {
						redactContainer(cm)
					}
				}
			}
			for _, c := range pt.inline {
				redactContainer(c)
			}
		}
	}
	return nil
}

// cleanMeta drops from labels and annotations what cleanOwner does.
func cleanMeta(meta map[string]any, job bool) {
	for _, f := range []string{"labels", "annotations"} {
		entries, _ := meta[f].(map[string]any)
		for key := range entries {
			if kueueKnobs[key] {
				continue
			}
			for _, p := range droppedPrefixes {
				if strings.HasPrefix(key, p) {
					delete(entries, key)
				}
			}
		}
		if f == "annotations" {
			for _, a := range droppedAnnotations {
				delete(entries, a)
			}
		}
		if f == "labels" && job {
			for _, l := range jobLabels {
				delete(entries, l)
			}
		}
		setOrDelete(meta, f, entries, len(entries) > 0)
	}
}

// cleanPodMeta drops from a pod template's metadata kueue-sim's labels
// and annotations, a Job's controller-uid labels and the null
// creationTimestamp the API server writes.
func cleanPodMeta(pt podTemplate, job bool) {
	for _, f := range []string{"labels", "annotations"} {
		entries, _ := pt.meta[f].(map[string]any)
		for key := range entries {
			if strings.HasPrefix(key, "kueue-sim.io/") {
				delete(entries, key)
			}
		}
		if f == "labels" && job {
			for _, l := range jobLabels {
				delete(entries, l)
			}
		}
		setOrDelete(pt.meta, f, entries, len(entries) > 0)
	}
	delete(pt.meta, "creationTimestamp")
	if len(pt.meta) == 0 {
		delete(pt.template, "metadata")
	}
}

// restorePodSetInfo sets the pod template's labels, annotations, node
// selector, tolerations and scheduling gates to those of the Workload's
// pod set, which Kueue took from the object before admission.
func restorePodSetInfo(pt podTemplate, ps *kueue.PodSet) error {
	orig, err := runtime.DefaultUnstructuredConverter.ToUnstructured(&ps.Template)
	if err != nil {
		return fmt.Errorf("reading the Workload's pod set %s: %w", ps.Name, err)
	}
	ometa, _ := orig["metadata"].(map[string]any)
	ospec, _ := orig["spec"].(map[string]any)
	for _, f := range []string{"labels", "annotations"} {
		v, ok := ometa[f].(map[string]any)
		setOrDelete(pt.meta, f, v, ok && len(v) > 0)
	}
	for _, f := range []string{"nodeSelector", "tolerations", "schedulingGates"} {
		v, ok := ospec[f]
		switch x := v.(type) {
		case map[string]any:
			ok = ok && len(x) > 0
		case []any:
			ok = ok && len(x) > 0
		}
		setOrDelete(pt.spec, f, v, ok)
	}
	return nil
}

// redactContainer drops a container's env, envFrom, command and args.
func redactContainer(c map[string]any) {
	for _, f := range []string{"env", "envFrom", "command", "args"} {
		delete(c, f)
	}
}

// podTemplate is one role's pod template in an owner: the pod set Kueue
// names it, its metadata and pod spec (maps within the object); an
// InferenceService's predictor has a pod spec and no metadata, and its
// model (and the per-framework fields) are containers inline.
type podTemplate struct {
	podSet         string
	template, meta map[string]any
	spec           map[string]any
	inline         []map[string]any
}

// podTemplatesOf are the roles' pod templates of m, of kind.
func podTemplatesOf(m map[string]any, kind string) []podTemplate {
	spec, _ := m["spec"].(map[string]any)
	var out []podTemplate
	add := func(podSet string, t map[string]any) {
		if t == nil {
			return
		}
		meta, _ := t["metadata"].(map[string]any)
		if meta == nil {
			meta = map[string]any{}
			t["metadata"] = meta
		}
		s, _ := t["spec"].(map[string]any)
		if s == nil {
			s = map[string]any{}
		}
		out = append(out, podTemplate{podSet: podSet, template: t, meta: meta, spec: s})
	}
	ray := func(rc map[string]any) {
		head, _ := rc["headGroupSpec"].(map[string]any)
		add("head", mapAt(head, "template"))
		groups, _ := rc["workerGroupSpecs"].([]any)
		for _, g := range groups {
			gm, _ := g.(map[string]any)
			name, _ := gm["groupName"].(string)
			add(strings.ToLower(name), mapAt(gm, "template"))
		}
	}
	switch kind {
	case "Job", "Notebook":
		add(string(kueue.DefaultPodSetName), mapAt(spec, "template"))
	case "PyTorchJob":
		specs, _ := spec["pytorchReplicaSpecs"].(map[string]any)
		for _, rt := range sortedKeys(specs) {
			rs, _ := specs[rt].(map[string]any)
			add(strings.ToLower(rt), mapAt(rs, "template"))
		}
	case "RayCluster":
		ray(spec)
	case "RayJob":
		ray(mapAt(spec, "rayClusterSpec"))
		add(podSetSubmitter, mapAt(spec, "submitterPodTemplate"))
	case "InferenceService":
		pred := mapAt(spec, "predictor")
		if pred == nil {
			return nil
		}
		pt := podTemplate{podSet: string(kueue.DefaultPodSetName), spec: pred}
		for key, v := range pred {
			if c, ok := v.(map[string]any); ok && !notContainers[key] {
				pt.inline = append(pt.inline, c)
			}
		}
		out = append(out, pt)
	}
	return out
}

// notContainers are the fields of an InferenceService's predictor that are
// maps and not containers.
var notContainers = map[string]bool{
	"affinity": true, "securityContext": true, "dnsConfig": true, "resources": true,
	"nodeSelector": true, "overhead": true, "labels": true, "annotations": true,
	"logger": true, "batcher": true,
}

// mapAt is the map at key of m, or nil.
func mapAt(m map[string]any, key string) map[string]any {
	if m == nil {
		return nil
	}
	v, _ := m[key].(map[string]any)
	return v
}

// setOrDelete sets m[key] to v when set, else deletes it.
func setOrDelete(m map[string]any, key string, v any, set bool) {
	if set {
		m[key] = v
	} else {
		delete(m, key)
	}
}

// dropIf deletes m[key] when it is value.
func dropIf(m map[string]any, key, value string) {
	if v, _ := m[key].(string); v == value {
		delete(m, key)
	}
}
