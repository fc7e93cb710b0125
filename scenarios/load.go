package scenarios

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"
	sigsjson "sigs.k8s.io/json"
	configapi "sigs.k8s.io/kueue/apis/config/v1beta2"
	"sigs.k8s.io/yaml"
)

// MaxProblems bounds the problems an Error lists; the rest are counted.
const MaxProblems = 50

// Error is an invalid scenario: every problem found, each with its line.
type Error struct {
	File     string
	Problems []Problem
	// More counts the problems left out after MaxProblems.
	More int
}

// Problem is one invalid field.
type Problem struct {
	// File, when set, is the file the problem is in (a manifest, the
	// Kueue configuration) instead of the scenario's.
	File string
	Line int // 0 when unknown
	// Doc is where in File: "document 2" of a manifest file.
	Doc   string
	Field string // field path, e.g. workloads[0].arrival.every; "" for the whole file
	Msg   string
}

func (e *Error) Error() string {
	var b strings.Builder
	n := len(e.Problems) + e.More
	fmt.Fprintf(&b, "%s is not a valid scenario (%d problem", e.File, n)
	if n != 1 {
		b.WriteString("s")
	}
	b.WriteString("):")
	for _, p := range e.Problems {
		b.WriteString("\n  ")
		b.WriteString(p.String(e.File))
	}
	if e.More > 0 {
		fmt.Fprintf(&b, "\n  ... and %d more: fix these first", e.More)
	}
	return b.String()
}

// String formats p as FILE:LINE: FIELD: MSG; file is the scenario's,
// unless p names another.
func (p Problem) String(file string) string {
	var b strings.Builder
	if p.File != "" {
		file = p.File
	}
	b.WriteString(file)
	if p.Line > 0 {
		fmt.Fprintf(&b, ":%d", p.Line)
	}
	b.WriteString(": ")
	if p.Doc != "" {
		b.WriteString(p.Doc + ": ")
	}
	if p.Field != "" {
		b.WriteString(p.Field + ": ")
	}
	b.WriteString(p.Msg)
	return b.String()
}

// IsInvalid tells whether err is an *Error (bad input, exit code 2).
func IsInvalid(err error) bool {
	var e *Error
	return errors.As(err, &e)
}

// LoadFile reads, defaults and validates a scenario file. The scenario's
// default name is the file name without its extension.
func LoadFile(path string) (*Scenario, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("reading scenario: %w", err)
	}
	defer f.Close()
	// Read one byte past the limit rather than trust Stat: pipes and
	// /dev files have no size.
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("reading scenario: %w", err)
	}
	if len(data) > MaxFileSize {
		return nil, newError(path, []Problem{{Msg: fmt.Sprintf(
			"the file is over the %d-byte limit: split the scenario or generate workloads with arrival and count instead of listing them", MaxFileSize)}})
	}
	name := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	return Load(path, name, data)
}

// Load decodes data strictly, applies defaults, reads the files the
// scenario names (queues.manifests, cluster.kueueConfig, the changes'
// apply files, the streams' template files, relative to file's folder; the
// working directory when file is "<stdin>" or another name in angle
// brackets) and validates the result. file names the input in errors;
// name is the default scenario name. Input over MaxFileSize, nested deeper
// than MaxDepth or whose aliases expand past MaxExpandedSize is refused
// before it is decoded.
func Load(file, name string, data []byte) (*Scenario, error) {
	dir := filepath.Dir(file)
	if strings.HasPrefix(file, "<") {
		dir = "."
	}
	return LoadIn(dir, file, name, data)
}

// LoadIn is Load with the folder the scenario's file references are
// relative to.
func LoadIn(dir, file, name string, data []byte) (*Scenario, error) {
	src, fatal, dups := parseSource(data)
	if len(fatal) > 0 {
		return nil, newError(file, fatal)
	}
	js, err := yaml.YAMLToJSON(data)
	if err != nil {
		p := syntaxProblem(data, err)
		if line := src.nonFinite(); line > 0 {
			p = Problem{Line: line, Msg: "not a number: YAML reads .nan and .inf as such, which no field takes: write a number"}
		}
		return nil, newError(file, append(dups, p))
	}
	s := &Scenario{}
	if errs := decodeStrict(js, s); len(errs) > 0 || len(dups) > 0 {
		return nil, newError(file, append(dups, src.problems(errs)...))
	}
	s.Loaded.ManagementStateSet = s.Cluster.OpenShiftAI.ManagementState != ""
	Default(s, name)
	refs := src.fromManifests(append(loadRefs(s, dir), loadTemplates(s, dir, file, src)...))
	errs, probs := validate(s)
	if all := append(append(src.problems(errs), refs...), probs...); len(all) > 0 {
		return nil, newError(file, all)
	}
	return s, nil
}

// decodeStrict decodes the JSON form of a scenario into s, reporting every
// unknown field and every value of the wrong type with its path.
func decodeStrict(js []byte, s *Scenario) field.ErrorList {
	var tree any
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.UseNumber()
	if err := dec.Decode(&tree); err != nil {
		return field.ErrorList{field.InternalError(nil, fmt.Errorf("re-reading the YAML as JSON: %w", err))}
	}
	if _, ok := tree.(map[string]any); !ok {
		return field.ErrorList{&field.Error{Type: field.ErrorTypeTypeInvalid, BadValue: field.OmitValueType{},
			Detail: "the file holds " + describe(tree) + ", not a scenario: a scenario is a mapping of fields, starting with apiVersion: " + APIVersion + " and kind: " + Kind + " (see scenarios/quickstart.yaml)"}}
	}
	errs := typeCheck(nil, tree, reflect.TypeOf(s).Elem())
	errs = append(errs, nullChecks(tree)...)
	if kueue := kueueConfig(tree); kueue != nil {
		errs = append(errs, checkKueueConfig(field.NewPath("cluster", "kueue"), kueue)...)
	}
	errs = append(errs, checkKueueReleases(tree)...)
	if len(errs) > 0 {
		return errs
	}
	strict, err := sigsjson.UnmarshalStrict(js, s)
	if err != nil {
		return field.ErrorList{field.InternalError(nil, fmt.Errorf("decoding the scenario: %w", err))}
	}
	for _, e := range strict {
		errs = append(errs, field.InternalError(nil, fmt.Errorf("decoding the scenario: %w", e)))
	}
	return errs
}

// nullChecks reports expectation checks written as a bare key
// ("placementMatchesFlavor:"), which YAML reads as null: unset, so the
// expectation would check nothing. A workload check's fields are checks
// too: a bare one there ("preempted:") is reported the same way, and so
// is a bare count of pendingCounts ("active:").
func nullChecks(tree any) field.ErrorList {
	exps, _ := tree.(map[string]any)["expectations"].([]any)
	var errs field.ErrorList
	for i, e := range exps {
		m, _ := e.(map[string]any)
		ep := field.NewPath("expectations").Index(i)
		for _, check := range checkKeys {
			if v, ok := m[check]; ok && v == nil {
				errs = append(errs, nullCheck(ep.Child(check), check))
			}
		}
		w, _ := m["workload"].(map[string]any)
		for _, k := range sortedStrings(w) {
			switch {
			case w[k] != nil:
			case k == "preempted" || k == "evicted":
				errs = append(errs, nullCheck(ep.Child("workload", k), k))
			default:
				errs = append(errs, nullValue(ep.Child("workload", k)))
			}
		}
		c, _ := m["pendingCounts"].(map[string]any)
		for _, k := range sortedStrings(c) {
			if c[k] == nil {
				errs = append(errs, nullValue(ep.Child("pendingCounts", k)))
			}
		}
	}
	return errs
}

func nullValue(p *field.Path) *field.Error {
	return invalid(p, "is empty, which YAML reads as unset: give it a value")
}

func nullCheck(p *field.Path, key string) *field.Error {
	return invalid(p, fmt.Sprintf("is empty, which YAML reads as unset: write %s: {} (or give its fields)", key))
}

// describe names the kind of a JSON value.
func describe(v any) string {
	switch v.(type) {
	case []any:
		return "a list"
	case string:
		return "a single string"
	case json.Number:
		return "a single number"
	case bool:
		return "a single boolean"
	default:
		return "a single value"
	}
}

func kueueConfig(tree any) map[string]any {
	cluster, _ := tree.(map[string]any)["cluster"].(map[string]any)
	kueue, _ := cluster["kueue"].(map[string]any)
	return kueue
}

// checkKueueConfig checks cluster.kueue against Kueue's Configuration type:
// Kueue's loader sees it only when `sim run` starts the control plane.
func checkKueueConfig(p *field.Path, kueue map[string]any) field.ErrorList {
	var errs field.ErrorList
	for _, k := range []string{"apiVersion", "kind"} {
		if _, ok := kueue[k]; ok {
			errs = append(errs, field.Forbidden(p.Child(k), "kueue-sim sets it (config.kueue.x-k8s.io/v1beta2 Configuration): remove it"))
		}
	}
	return append(errs, typeCheck(p, kueue, reflect.TypeFor[configapi.Configuration]())...)
}

// problems gives each field error its line and sorts them by line.
func (src source) problems(errs field.ErrorList) []Problem {
	out := make([]Problem, 0, len(errs))
	for _, e := range errs {
		out = append(out, Problem{Line: src.lines.Line(e.Field), Field: e.Field, Msg: message(e)})
	}
	return out
}

// message is e's text without the field path: the detail alone where the
// type says nothing ("unknown field: ..." rather than "Unsupported value:
// unknown field: ...").
func message(e *field.Error) string {
	if e.BadValue == (field.OmitValueType{}) && (e.Type == field.ErrorTypeNotSupported || e.Type == field.ErrorTypeTypeInvalid || e.Type == field.ErrorTypeInvalid) {
		return e.Detail
	}
	return e.ErrorBody()
}

// newError sorts problems by file (the scenario's first) and line into an
// Error of the first MaxProblems.
func newError(file string, probs []Problem) *Error {
	sort.SliceStable(probs, func(i, j int) bool {
		a, b := probs[i], probs[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Field != b.Field {
			return a.Field < b.Field
		}
		return a.Msg < b.Msg
	})
	e := &Error{File: file, Problems: probs}
	if len(probs) > MaxProblems {
		e.Problems, e.More = probs[:MaxProblems:MaxProblems], len(probs)-MaxProblems
	}
	return e
}
