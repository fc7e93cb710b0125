package kube

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"sigs.k8s.io/controller-runtime/pkg/client"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
	"sigs.k8s.io/yaml"

	"github.com/kueue-sim/kueue-sim/scenarios"
)

// The owners of the replayed Workloads: the objects the teams submitted,
// which an import writes as the streams' templates (templates.go).

// ownerType is a kind of object whose Workloads an import replays from the
// object itself: the version it lists and a template holds, its resource.
type ownerType struct {
	gv       schema.GroupVersion
	kind     string
	resource string
	stream   scenarios.WorkloadKind
}

func (k ownerType) gvk() schema.GroupVersionKind { return k.gv.WithKind(k.kind) }

// groupResource is resource.group, as list errors and notes name it.
func (k ownerType) groupResource() string {
	return schema.GroupResource{Group: k.gv.Group, Resource: k.resource}.String()
}

// ownerTypes are the owners an import lists, in the order it lists them.
var ownerTypes = []ownerType{
	{schema.GroupVersion{Group: "batch", Version: "v1"}, "Job", "jobs", scenarios.KindJob},
	{schema.GroupVersion{Group: "kubeflow.org", Version: "v1"}, "PyTorchJob", "pytorchjobs", scenarios.KindPyTorchJob},
	{schema.GroupVersion{Group: "ray.io", Version: "v1"}, "RayJob", "rayjobs", scenarios.KindRayJob},
	{schema.GroupVersion{Group: "ray.io", Version: "v1"}, "RayCluster", "rayclusters", scenarios.KindRayCluster},
	{schema.GroupVersion{Group: "kubeflow.org", Version: "v1"}, "Notebook", "notebooks", scenarios.KindNotebook},
	{schema.GroupVersion{Group: "serving.kserve.io", Version: "v1beta1"}, "InferenceService", "inferenceservices", scenarios.KindInferenceService},
}

// ownerTypeOf is the owner kind of group and kind, if the import reads it.
func ownerTypeOf(group, kind string) (ownerType, bool) {
	for _, k := range ownerTypes {
		if k.gv.Group == group && k.kind == kind {
			return k, true
		}
	}
	return ownerType{}, false
}

// ownerRef names the object a Workload replays from: its kind, namespace
// and name, and its uid when the Workload's owner reference is to the
// object itself (a Notebook's Workload is owned by its StatefulSet, an
// InferenceService's by a predictor pod: matched by name only).
type ownerRef struct {
	kind            ownerType
	namespace, name string
	uid             string
}

func (o ownerRef) String() string { return o.kind.kind + " " + o.namespace + "/" + o.name }

// key is the owner's kind, namespace and name.
func (o ownerRef) key() ownerKey {
	return ownerKey{group: o.kind.gv.Group, kind: o.kind.kind, namespace: o.namespace, name: o.name}
}

type ownerKey struct{ group, kind, namespace, name string }

// ownerOf is the object wl replays from: its controller owner (else its
// first owner) when of a kind in ownerTypes; the Notebook of the
// StatefulSet that runs a notebook; the InferenceService of a predictor
// pod. nil when the Workload has no owner the import reads.
func ownerOf(wl *kueue.Workload) *ownerRef {
	if len(wl.OwnerReferences) == 0 {
		return nil
	}
	ref := wl.OwnerReferences[0]
	for _, o := range wl.OwnerReferences {
		if o.Controller != nil && *o.Controller {
			ref = o
			break
		}
	}
	gv, err := schema.ParseGroupVersion(ref.APIVersion)
	if err != nil {
		return nil
	}
	if k, ok := ownerTypeOf(gv.Group, ref.Kind); ok {
		return &ownerRef{kind: k, namespace: wl.Namespace, name: ref.Name, uid: string(ref.UID)}
	}
	switch ownerKind(wl) {
	case scenarios.KindNotebook:
		// The notebook controller names the StatefulSet after the Notebook
		// and labels its pods notebook-name.
		k, _ := ownerTypeOf("kubeflow.org", "Notebook")
		name := podSetLabel(wl, notebookNameLabel)
		if name == "" {
			name = ref.Name
		}
		return &ownerRef{kind: k, namespace: wl.Namespace, name: name}
	case scenarios.KindInferenceService:
		// KServe labels the predictor's pods with the InferenceService's
		// name, and names them <name>-predictor-....
		k, _ := ownerTypeOf("serving.kserve.io", "InferenceService")
		name := podSetLabel(wl, isvcLabel)
		if name == "" {
			if i := strings.LastIndex(ref.Name, "-predictor-"); i > 0 {
				name = ref.Name[:i]
			}
		}
		if name == "" {
			return nil
		}
		return &ownerRef{kind: k, namespace: wl.Namespace, name: name}
	}
	return nil
}

// podSetLabel is the label key of the Workload, else of its first pod set
// that has it.
func podSetLabel(wl *kueue.Workload, key string) string {
	if v := wl.Labels[key]; v != "" {
		return v
	}
	for _, ps := range wl.Spec.PodSets {
		if v := ps.Template.Labels[key]; v != "" {
			return v
		}
	}
	return ""
}

// owners are the owner objects read, by kind, namespace and name (a dump
// may hold several of one name, told apart by uid), and why a kind could
// not be read.
type owners struct {
	objects map[ownerKey][]map[string]any
	// notServed are the kinds the cluster does not serve (no CRD).
	notServed map[string]bool
	// forbidden are the kinds and namespaces the import may not list:
	// kind → namespaces.
	forbidden map[string]map[string]bool
}

func newOwners() *owners {
	return &owners{objects: map[ownerKey][]map[string]any{}, notServed: map[string]bool{}, forbidden: map[string]map[string]bool{}}
}

// add indexes obj, of kind k.
func (o *owners) add(k ownerType, obj map[string]any) {
	meta, _ := obj["metadata"].(map[string]any)
	ns, _ := meta["namespace"].(string)
	name, _ := meta["name"].(string)
	key := ownerKey{group: k.gv.Group, kind: k.kind, namespace: ns, name: name}
	o.objects[key] = append(o.objects[key], obj)
}

// Why a Workload is rebuilt from its pod sets rather than replayed from its
// owner's manifest.
const (
	rebuiltNoOwner    = "no owner of a kind the import reads"
	rebuiltGone       = "owner gone"
	rebuiltNotServed  = "owner's kind not served"
	rebuiltForbidden  = "owner's kind forbidden to list"
	rebuiltUnloadable = "owner's manifest does not load"
)

// find is the object ref names: of its kind, namespace and name, and of
// its uid when both say one. why says why there is none.
func (o *owners) find(ref *ownerRef) (map[string]any, string) {
	if ref == nil {
		return nil, rebuiltNoOwner
	}
	switch {
	case o.notServed[ref.kind.kind]:
		return nil, rebuiltNotServed
	case o.forbidden[ref.kind.kind][ref.namespace]:
		return nil, rebuiltForbidden
	}
	for _, obj := range o.objects[ref.key()] {
		meta, _ := obj["metadata"].(map[string]any)
		uid, _ := meta["uid"].(string)
		if ref.uid == "" || uid == "" || uid == ref.uid {
			return obj, ""
		}
	}
	return nil, rebuiltGone
}

// listOwners lists, per owner kind, the objects of each namespace whose
// replayed Workloads name an owner of that kind: list calls only, never
// pods, Secrets or logs. A kind the cluster does not serve is skipped
// quietly (its Workloads are rebuilt from their pod sets, and counted so),
// a forbidden list is a note; other errors stop the import.
func (r *clusterReader) listOwners(ctx context.Context, recs []record) (*owners, error) {
	o := newOwners()
	namespaces := map[string]map[string]bool{}
	for _, rec := range recs {
		if rec.owner == nil {
			continue
		}
		k := rec.owner.kind.kind
		if namespaces[k] == nil {
			namespaces[k] = map[string]bool{}
		}
		namespaces[k][rec.owner.namespace] = true
	}
	for _, k := range ownerTypes {
		var refused []string
		why := ""
		for _, ns := range sortedKeys(namespaces[k.kind]) {
			items, err := r.pages(ctx, k.gvk(), client.InNamespace(ns))
			switch {
			case err == nil:
			case notServed(err):
				o.notServed[k.kind] = true
			case apierrors.IsForbidden(err):
				if o.forbidden[k.kind] == nil {
					o.forbidden[k.kind] = map[string]bool{}
				}
				o.forbidden[k.kind][ns] = true
				refused, why = append(refused, ns), reason(err)
				continue
			default:
				return nil, fmt.Errorf("listing %s in %s: %w", k.groupResource(), ns, err)
			}
			if o.notServed[k.kind] {
				break
			}
			for _, u := range items {
				if u.GetAPIVersion() == "" {
					u.SetGroupVersionKind(k.gvk())
				}
				o.add(k, u.Object)
			}
		}
		if len(refused) > 0 {
			r.imp.Notes = append(r.imp.Notes, fmt.Sprintf("forbidden: list %s in %s (%s): their Workloads are rebuilt from their pod sets",
				k.groupResource(), strings.Join(refused, ", "), why))
		}
	}
	return o, nil
}

// ownersHint says what a file of owners holds.
const ownersHint = "save the owners with `kubectl get jobs,pytorchjobs,rayjobs,rayclusters -A -o yaml > owners.yaml` (and notebooks, inferenceservices where served)"

// readOwners reads owner objects from files: kubectl's List, single
// objects or several YAML documents, YAML or JSON. Objects of kinds the
// import does not read as owners are counted in other (kind → count).
func readOwners(files []string) (*owners, map[string]int, error) {
	o := newOwners()
	other := map[string]int{}
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, nil, &InputError{File: path, Msg: fmt.Sprintf("cannot read the file (%v): %s", unwrapPath(err), ownersHint)}
		}
		n := 0 // objects in the file
		docs := splitDocuments(data)
		for _, d := range docs {
			objs, msg := decodeObjects(d.data)
			if msg != "" {
				e := &InputError{File: path, Line: d.line, Msg: msg + ": " + ownersHint}
				if len(docs) > 1 {
					e.Doc = d.index
				}
				return nil, nil, e
			}
			for _, obj := range objs {
				apiVersion, _ := obj["apiVersion"].(string)
				kind, _ := obj["kind"].(string)
				gv, _ := schema.ParseGroupVersion(apiVersion)
				k, ok := ownerTypeOf(gv.Group, kind)
				n++
				if !ok {
					other[strings.TrimSpace(apiVersion+" "+kind)]++
					continue
				}
				o.add(k, obj)
			}
		}
		if n == 0 {
			return nil, nil, &InputError{File: path, Msg: "no objects in the file: " + ownersHint}
		}
	}
	return o, other, nil
}

// decodeObjects are the objects of one document: a List's items, or the
// document's object.
func decodeObjects(data []byte) ([]map[string]any, string) {
	js, err := yaml.YAMLToJSON(data)
	if err != nil {
		return nil, fmt.Sprintf("not YAML or JSON: %v", strings.TrimPrefix(err.Error(), "error converting YAML to JSON: "))
	}
	var obj map[string]any
	if err := utiljson.Unmarshal(js, &obj); err != nil || obj == nil {
		return nil, "not an object"
	}
	kind, _ := obj["kind"].(string)
	items, isList := obj["items"]
	if !isList && !strings.HasSuffix(kind, "List") {
		return []map[string]any{obj}, ""
	}
	list, ok := items.([]any)
	if !ok && items != nil {
		return nil, "items is not a list"
	}
	out := make([]map[string]any, 0, len(list))
	for i, it := range list {
		m, ok := it.(map[string]any)
		if !ok {
			return nil, fmt.Sprintf("items[%d] is not an object", i)
		}
		out = append(out, m)
	}
	return out, ""
}

// otherKinds says which objects of other kinds were left out.
func otherKinds(other map[string]int) string {
	parts := make([]string, 0, len(other))
	for _, k := range sortedKeys(other) {
		parts = append(parts, fmt.Sprintf("%d %s", other[k], k))
	}
	sort.Strings(parts)
	return strings.Join(parts, ", ")
}
