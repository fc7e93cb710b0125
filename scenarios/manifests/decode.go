package manifests

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/controller-runtime/pkg/client"
	sigsjson "sigs.k8s.io/json"

	"github.com/kueue-sim/kueue-sim/scenarios/internal/yamlcheck"
)

// Decode decodes the manifests of one file, every document, and returns
// the objects and every problem. file names the input in problems.
func Decode(file string, data []byte) ([]Object, []Problem) {
	if len(data) > MaxFileSize {
		return nil, []Problem{{File: file, Item: -1, Msg: fmt.Sprintf("the file is %d bytes, over the %d-byte limit: split it", len(data), MaxFileSize)}}
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var out []Object
	var probs []Problem
	for doc := 1; ; doc++ {
		var n yaml.Node
		err := dec.Decode(&n)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			line, msg := yamlError(err)
			return out, append(probs, Problem{File: file, Line: line, Item: -1, Msg: "not valid YAML: " + msg + ": check the indentation, colons, quotes and brackets"})
		}
		if len(n.Content) == 0 || (n.Content[0].Kind == yaml.ScalarNode && n.Content[0].Tag == "!!null") {
			continue // an empty document: a lone --- or comments
		}
		objs, ps := decodeDocument(Source{File: file, Doc: doc, Item: -1, Line: n.Content[0].Line}, n.Content[0])
		out, probs = append(out, objs...), append(probs, ps...)
		if len(out) > MaxObjects {
			return out, append(probs, Problem{File: file, Doc: doc, Item: -1, Line: n.Content[0].Line, Msg: fmt.Sprintf("over %d objects: split the manifests", MaxObjects)})
		}
	}
	return out, probs
}

var yamlLine = regexp.MustCompile(`line (\d+): (.*)`)

// yamlError is the line and message of a YAML parser error.
func yamlError(err error) (int, string) {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	msg = strings.TrimPrefix(msg, "unmarshal errors:\n  ")
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		return line, m[2]
	}
	return 0, msg
}

// decodeDocument decodes one document: an object, or a List of them.
func decodeDocument(src Source, root *yaml.Node) ([]Object, []Problem) {
	problem := func(line int, path, msg string) []Problem {
		return []Problem{{File: src.File, Line: line, Doc: src.Doc, Item: src.Item, Field: path, Msg: msg}}
	}
	tree, err := jsonTree(root)
	if err != nil {
		line, msg := yamlError(err)
		if line == 0 {
			line = src.Line
		}
		return nil, problem(line, "", msg)
	}
	m, ok := tree.(map[string]any)
	if !ok {
		return nil, problem(src.Line, "", "the document is not a mapping: a manifest is a Kubernetes object with apiVersion, kind and metadata")
	}
	apiVersion, _ := m["apiVersion"].(string)
	kindName, _ := m["kind"].(string)
	if apiVersion == "v1" && kindName == "List" {
		return decodeList(src, root, m)
	}
	obj, probs := decodeObject(src, yamlcheck.NewIndex(root), m)
	if obj == nil {
		return nil, probs
	}
	return []Object{*obj}, probs
}

// decodeList decodes the items of a List (kubectl get -o yaml writes one).
func decodeList(src Source, root *yaml.Node, m map[string]any) ([]Object, []Problem) {
	items, ok := m["items"].([]any)
	if !ok {
		return nil, []Problem{{File: src.File, Line: src.Line, Doc: src.Doc, Item: -1, Field: "items", Msg: "a List holds its objects under items: give them as a list"}}
	}
	var itemNodes []*yaml.Node
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value == "items" {
			itemNodes = yamlcheck.Deref(root.Content[i+1]).Content
		}
	}
	var out []Object
	var probs []Problem
	for i, it := range items {
		isrc := src
		isrc.Item = i
		node := root
		if i < len(itemNodes) {
			node = itemNodes[i]
			isrc.Line = node.Line
		}
		im, ok := it.(map[string]any)
		if !ok {
			probs = append(probs, Problem{File: src.File, Line: isrc.Line, Doc: src.Doc, Item: i, Msg: "the item is not a mapping: a List's items are Kubernetes objects"})
			continue
		}
		if v, _ := im["kind"].(string); v == "List" {
			probs = append(probs, Problem{File: src.File, Line: isrc.Line, Doc: src.Doc, Item: i, Field: "kind", Msg: "a List inside a List: list the objects themselves"})
			continue
		}
		obj, ps := decodeObject(isrc, yamlcheck.NewIndex(node), im)
		probs = append(probs, ps...)
		if obj != nil {
			out = append(out, *obj)
		}
	}
	return out, probs
}

// jsonTree is the document as JSON would decode it, numbers as
// json.Number.
func jsonTree(n *yaml.Node) (any, error) {
	var v any
	if err := n.Decode(&v); err != nil {
		return nil, err
	}
	js, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("the document holds a value JSON cannot (a mapping key that is not a string, .nan or .inf): %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.UseNumber()
	var tree any
	if err := dec.Decode(&tree); err != nil {
		return nil, fmt.Errorf("re-reading the document as JSON: %w", err)
	}
	return tree, nil
}

// table is a set of kinds one loader takes: the kinds of queues.manifests
// (kinds.go) or of a stream's template (templates.go).
type table struct {
	// kindOf finds a kind the table takes.
	kindOf func(apiVersion, name string) (kind, bool)
	// whyUnsupported is the message on a kind it does not take.
	whyUnsupported func(apiVersion, name string) string
	// example is an apiVersion and kind to start an object with.
	example string
	// scope checks an object's name and namespace.
	scope func(o Object, k kind) []Problem
	// clean drops what the cluster fills in.
	clean func(obj client.Object)
}

// manifestTable is the kinds of queues.manifests.
var manifestTable = table{kindOf: kindOf, whyUnsupported: whyUnsupported, scope: Object.scope, clean: clean,
	example: "apiVersion: kueue.x-k8s.io/v1beta2, kind: ClusterQueue"}

// decodeObject decodes one manifest strictly into the Go type of its kind.
func decodeObject(src Source, lines *yamlcheck.Index, m map[string]any) (*Object, []Problem) {
	return manifestTable.decodeObject(src, lines, m)
}

// decodeObject decodes one object strictly into the Go type of its kind.
func (t table) decodeObject(src Source, lines *yamlcheck.Index, m map[string]any) (*Object, []Problem) {
	apiVersion, _ := m["apiVersion"].(string)
	kindName, _ := m["kind"].(string)
	at := Object{Kind: kindName, APIVersion: apiVersion, Source: src, lines: lines}
	switch {
	case apiVersion == "" || kindName == "":
		return nil, []Problem{at.Problem("", "apiVersion and kind are missing or not strings: a manifest starts with apiVersion and kind (e.g. "+t.example+")")}
	}
	k, ok := t.kindOf(apiVersion, kindName)
	if !ok {
		return nil, []Problem{at.Problem("", t.whyUnsupported(apiVersion, kindName))}
	}
	obj := k.decode()
	var probs []Problem
	opts := yamlcheck.Options{Doc: func(string) string {
		return "the " + kindName + " reference of " + apiVersion
	}}
	errs := yamlcheck.Check(nil, m, reflect.TypeOf(obj).Elem(), opts)
	if k.shape != nil {
		errs = append(errs, k.shape(m, opts)...)
	}
	for _, e := range errs {
		if !k.isOpen(e) {
			probs = append(probs, at.Problem(e.Field, message(e)))
		}
	}
	for _, path := range sortedKeys(k.refused) {
		if has(m, path) {
			probs = append(probs, at.Problem(path, k.refused[path]))
		}
	}
	if len(probs) > 0 {
		return nil, probs
	}
	js, err := json.Marshal(m)
	if err == nil {
		err = sigsjson.UnmarshalCaseSensitivePreserveInts(js, obj)
	}
	if err != nil {
		return nil, []Problem{at.Problem("", fmt.Sprintf("decoding the %s: %v", kindName, err))}
	}
	if k.convert != nil {
		converted, err := k.convert(obj)
		if err != nil {
			return nil, []Problem{at.Problem("", fmt.Sprintf("converting the %s to kueue.x-k8s.io/v1beta2 with Kueue's conversion: %v: write it in v1beta2", kindName, err))}
		}
		obj = converted
	}
	t.clean(obj)
	at.Obj = obj
	if probs := t.scope(at, k); len(probs) > 0 {
		return nil, probs
	}
	if k.validate != nil {
		for _, e := range k.validate(obj) {
			probs = append(probs, at.Problem(e.Field, e.ErrorBody()+" (Kueue's validation)"))
		}
	}
	if k.check != nil {
		for _, e := range k.check(obj) {
			probs = append(probs, at.Problem(e.Field, message(e)))
		}
	}
	if len(probs) > 0 {
		return nil, probs
	}
	return &at, nil
}

// isOpen tells whether e is an unknown field the kind accepts.
func (k kind) isOpen(e *field.Error) bool {
	if e.Type != field.ErrorTypeNotSupported || !strings.HasPrefix(e.Detail, "unknown field") {
		return false
	}
	parent := e.Field[:max(strings.LastIndex(e.Field, "."), 0)]
	for _, o := range k.open {
		if parent == o {
			return true
		}
	}
	return false
}

// message is e's text without the field path.
func message(e *field.Error) string {
	if e.BadValue == (field.OmitValueType{}) {
		return e.Detail
	}
	return e.ErrorBody()
}

// has tells whether the dotted path is set in m.
func has(m map[string]any, path string) bool {
	var v any = m
	for _, step := range strings.Split(path, ".") {
		mm, ok := v.(map[string]any)
		if !ok {
			return false
		}
		if v, ok = mm[step]; !ok {
			return false
		}
	}
	return v != nil
}

// clean drops what the cluster fills in: an exported manifest carries it,
// and applying it would fail (resourceVersion) or mislead (status,
// ownerReferences to objects that are not there).
func clean(obj client.Object) {
	obj.GetObjectKind().SetGroupVersionKind(schema.GroupVersionKind{})
	obj.SetResourceVersion("")
	obj.SetUID("")
	obj.SetGeneration(0)
	obj.SetCreationTimestamp(metav1.Time{})
	obj.SetDeletionTimestamp(nil)
	obj.SetDeletionGracePeriodSeconds(nil)
	obj.SetManagedFields(nil)
	obj.SetOwnerReferences(nil)
	obj.SetSelfLink("")
	if st := reflect.ValueOf(obj).Elem().FieldByName("Status"); st.IsValid() && st.CanSet() {
		st.Set(reflect.Zero(st.Type()))
	}
}

// scope checks the object's name and namespace.
func (o Object) scope(k kind) []Problem {
	var probs []Problem
	name, ns := o.Obj.GetName(), o.Obj.GetNamespace()
	switch {
	case name == "" && o.Obj.GetGenerateName() != "":
		probs = append(probs, o.Problem("metadata.generateName", "kueue-sim applies manifests by name: set metadata.name instead"))
	case name == "":
		probs = append(probs, o.Problem("metadata.name", "required: give the "+o.Kind+" a name"))
	case o.Kind == "Namespace":
		if msgs := validation.IsDNS1123Label(name); len(msgs) > 0 {
			probs = append(probs, o.Problem("metadata.name", fmt.Sprintf("invalid Namespace name %q: %s", name, strings.Join(msgs, "; "))))
		}
	default:
		if msgs := validation.IsDNS1123Subdomain(name); len(msgs) > 0 {
			probs = append(probs, o.Problem("metadata.name", fmt.Sprintf("invalid name %q: %s", name, strings.Join(msgs, "; "))))
		}
	}
	switch {
	case k.namespaced && ns == "":
		probs = append(probs, o.Problem("metadata.namespace", "required: a "+o.Kind+" lives in a namespace; set a team's namespace"))
	case !k.namespaced && ns != "":
		probs = append(probs, o.Problem("metadata.namespace", "a "+o.Kind+" is cluster-scoped: remove metadata.namespace"))
	case ns != "":
		if msgs := validation.IsDNS1123Label(ns); len(msgs) > 0 {
			probs = append(probs, o.Problem("metadata.namespace", fmt.Sprintf("invalid namespace %q: %s", ns, strings.Join(msgs, "; "))))
		}
	}
	return probs
}
