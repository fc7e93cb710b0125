package kube

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"regexp"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	kueuev1beta1 "sigs.k8s.io/kueue/apis/kueue/v1beta1"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
	"sigs.k8s.io/yaml"
)

// dumpHint says how to make a file the import reads.
const dumpHint = "save one with `kubectl get workloads.kueue.x-k8s.io -A -o yaml > workloads.yaml` (or -o json)"

// InputError is a dump file the import cannot read: bad YAML or JSON, or
// objects that are not Kueue Workloads. The command line exits 2 on it.
type InputError struct {
	File string
	// Doc is the 1-based YAML document, Line the line it starts on (0 when
	// the file is one JSON value).
	Doc, Line int
	Msg       string
}

func (e *InputError) Error() string {
	where := e.File
	if e.Line > 0 {
		where = fmt.Sprintf("%s:%d", e.File, e.Line)
	}
	if e.Doc > 0 {
		where += fmt.Sprintf(" (document %d)", e.Doc)
	}
	return where + ": " + e.Msg
}

// IsInputError tells whether err is an *InputError.
func IsInputError(err error) bool {
	var e *InputError
	return errors.As(err, &e)
}

// ReadWorkloads reads Kueue Workloads from a file: kubectl's List (kind List
// or WorkloadList, with items), one Workload, or several YAML documents of
// either; YAML or JSON; kueue.x-k8s.io v1beta1 (converted) or v1beta2.
func ReadWorkloads(path string) ([]kueue.Workload, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, &InputError{File: path, Msg: fmt.Sprintf("cannot read the file (%v): %s", unwrapPath(err), dumpHint)}
	}
	var out []kueue.Workload
	docs := splitDocuments(data)
	for _, d := range docs {
		wls, msg := decodeDocument(d.data)
		if msg != "" {
			line := d.line
			if m := yamlLine.FindStringSubmatch(msg); m != nil {
				n, _ := strconv.Atoi(m[1])
				line += n - 1
				msg = strings.Replace(msg, m[0], "yaml: ", 1)
			}
			e := &InputError{File: path, Line: line, Msg: msg}
			if len(docs) > 1 {
				e.Doc = d.index
			}
			return nil, e
		}
		out = append(out, wls...)
	}
	if len(out) == 0 {
		return nil, &InputError{File: path, Msg: "no Workloads in the file: " + dumpHint}
	}
	return out, nil
}

// yamlLine finds the line, within its document, of a YAML syntax error.
var yamlLine = regexp.MustCompile(`yaml: line (\d+): `)

// document is one YAML document of a file, with its 1-based index and the
// line it starts on.
type document struct {
	index, line int
	data        []byte
}

// splitDocuments splits YAML at "---" lines, leaving out empty documents
// (JSON is one document).
func splitDocuments(data []byte) []document {
	var docs []document
	var cur bytes.Buffer
	start, index := 1, 0
	flush := func() {
		if len(bytes.TrimSpace(stripComments(cur.Bytes()))) > 0 {
			index++
			docs = append(docs, document{index: index, line: start, data: append([]byte(nil), cur.Bytes()...)})
		}
		cur.Reset()
	}
	s := bufio.NewScanner(bytes.NewReader(data))
	s.Buffer(make([]byte, 64*1024), len(data)+1)
	line := 0
	for s.Scan() {
		line++
		l := s.Text()
		if l == "---" || strings.HasPrefix(l, "--- ") {
			flush()
			start = line + 1
			continue
		}
		if cur.Len() == 0 && strings.TrimSpace(l) == "" {
			start = line + 1
		}
		cur.WriteString(l)
		cur.WriteByte('\n')
	}
	flush()
	return docs
}

func stripComments(b []byte) []byte {
	var out bytes.Buffer
	for _, l := range bytes.Split(b, []byte("\n")) {
		if t := bytes.TrimSpace(l); len(t) > 0 && t[0] != '#' {
			out.Write(l)
			out.WriteByte('\n')
		}
	}
	return out.Bytes()
}

// decodeDocument reads the Workloads of one document; msg says what is
// wrong with it.
func decodeDocument(data []byte) ([]kueue.Workload, string) {
	js, err := yaml.YAMLToJSON(data)
	if err != nil {
		return nil, fmt.Sprintf("not YAML or JSON: %v", strings.TrimPrefix(err.Error(), "error converting YAML to JSON: "))
	}
	var obj map[string]any
	if err := utiljson.Unmarshal(js, &obj); err != nil || obj == nil {
		return nil, "not an object: " + dumpHint
	}
	kind, _ := obj["kind"].(string)
	if items, ok := obj["items"]; ok || strings.HasSuffix(kind, "List") {
		list, ok := items.([]any)
		if !ok && items != nil {
			return nil, "items is not a list: " + dumpHint
		}
		out := make([]kueue.Workload, 0, len(list))
		for i, it := range list {
			m, _ := it.(map[string]any)
			wl, msg := workloadOf(m)
			if msg != "" {
				return nil, fmt.Sprintf("items[%d]%s: %s", i, nameOf(m), msg)
			}
			out = append(out, *wl)
		}
		return out, ""
	}
	wl, msg := workloadOf(obj)
	if msg != "" {
		if n := nameOf(obj); n != "" {
			return nil, strings.TrimSpace(n) + ": " + msg
		}
		return nil, msg
	}
	return []kueue.Workload{*wl}, ""
}

func nameOf(m map[string]any) string {
	meta, _ := m["metadata"].(map[string]any)
	ns, _ := meta["namespace"].(string)
	name, _ := meta["name"].(string)
	switch {
	case name == "":
		return ""
	case ns == "":
		return " (" + name + ")"
	}
	return " (" + ns + "/" + name + ")"
}

// workloadOf converts one object to a v1beta2 Workload.
func workloadOf(m map[string]any) (*kueue.Workload, string) {
	if m == nil {
		return nil, "not an object: " + dumpHint
	}
	apiVersion, _ := m["apiVersion"].(string)
	kind, _ := m["kind"].(string)
	if kind != "Workload" || !strings.HasPrefix(apiVersion, kueue.SchemeGroupVersion.Group+"/") {
		what := strings.TrimSpace(apiVersion + " " + kind)
		if what == "" {
			what = "an object without apiVersion and kind"
		}
		return nil, fmt.Sprintf("%s is not a Kueue Workload (kueue.x-k8s.io): %s", what, dumpHint)
	}
	switch apiVersion {
	case kueue.SchemeGroupVersion.String():
		wl := &kueue.Workload{}
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(m, wl); err != nil {
			return nil, fmt.Sprintf("reading the Workload: %v", err)
		}
		return wl, ""
	case kueuev1beta1.SchemeGroupVersion.String():
		old := &kueuev1beta1.Workload{}
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(m, old); err != nil {
			return nil, fmt.Sprintf("reading the Workload: %v", err)
		}
		wl := &kueue.Workload{}
		if err := old.ConvertTo(wl); err != nil {
			return nil, fmt.Sprintf("converting the v1beta1 Workload: %v", err)
		}
		return wl, ""
	}
	return nil, fmt.Sprintf("apiVersion %s: use kueue.x-k8s.io/v1beta1 or v1beta2", apiVersion)
}

// unwrapPath is an os error without the path the message names already.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
