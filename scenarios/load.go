package scenarios

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"
	sigsjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"
)

// MaxFileSize bounds a scenario file; larger input is refused before parsing.
const MaxFileSize = 8 << 20

// Error is an invalid scenario: every problem found, each with its line.
type Error struct {
	File     string
	Problems []Problem
}

// Problem is one invalid field.
type Problem struct {
	Line  int // 0 when unknown
	Field string
	Msg   string
}

func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s is not a valid scenario (%d problem", e.File, len(e.Problems))
	if len(e.Problems) != 1 {
		b.WriteString("s")
	}
	b.WriteString("):")
	for _, p := range e.Problems {
		b.WriteString("\n  ")
		b.WriteString(e.File)
		if p.Line > 0 {
			fmt.Fprintf(&b, ":%d", p.Line)
		}
		b.WriteString(": ")
		if p.Field != "" {
			b.WriteString(p.Field + ": ")
		}
		b.WriteString(p.Msg)
	}
	return b.String()
}

// IsInvalid tells whether err is an *Error (bad input, exit code 2).
func IsInvalid(err error) bool {
	var e *Error
	return errors.As(err, &e)
}

// LoadFile reads, defaults and validates a scenario file.
func LoadFile(path string) (*Scenario, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("reading scenario: %w", err)
	}
	if st.Size() > MaxFileSize {
		return nil, &Error{File: path, Problems: []Problem{{Msg: fmt.Sprintf(
			"the file is %d bytes, over the %d-byte limit: split it or generate workloads with arrival and count", st.Size(), MaxFileSize)}}}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading scenario: %w", err)
	}
	name := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	return Load(path, name, data)
}

// Load decodes data strictly, applies defaults and validates the result.
// file names the input in errors; name is the default scenario name.
func Load(file, name string, data []byte) (*Scenario, error) {
	if len(data) > MaxFileSize {
		return nil, &Error{File: file, Problems: []Problem{{Msg: "input over the size limit"}}}
	}
	lines := newLineIndex(data)
	s := &Scenario{}
	if errs := decodeStrict(data, s); len(errs) > 0 {
		return nil, &Error{File: file, Problems: lines.problems(errs)}
	}
	Default(s, name)
	if errs := Validate(s); len(errs) > 0 {
		return nil, &Error{File: file, Problems: lines.problems(errs)}
	}
	return s, nil
}

// decodeStrict decodes YAML into v, reporting every unknown or duplicate
// field with its path.
func decodeStrict(data []byte, v any) field.ErrorList {
	js, err := yaml.YAMLToJSON(data)
	if err != nil {
		return field.ErrorList{field.Invalid(nil, nil, "not valid YAML: "+err.Error())}
	}
	if string(js) == "null" {
		return field.ErrorList{field.Required(nil, "the file is empty: start from scenarios/quickstart.yaml")}
	}
	strict, err := sigsjson.UnmarshalStrict(js, v)
	if err != nil {
		return field.ErrorList{field.Invalid(nil, nil, jsonErr(err))}
	}
	var errs field.ErrorList
	for _, e := range strict {
		path, msg := splitStrict(e.Error())
		errs = append(errs, &field.Error{Type: field.ErrorTypeNotSupported, Field: path, Detail: msg, BadValue: field.OmitValueType{}})
	}
	sort.Slice(errs, func(i, j int) bool { return errs[i].Field < errs[j].Field })
	return errs
}

// splitStrict turns `unknown field "a.b[0].c"` into ("a.b[0].c", "unknown
// field: remove it or check its spelling").
func splitStrict(msg string) (string, string) {
	for _, kind := range []string{"unknown field", "duplicate field"} {
		if rest, ok := strings.CutPrefix(msg, kind+" "); ok {
			fix := "remove it or check its spelling (see scenarios/README.md)"
			if kind == "duplicate field" {
				fix = "it appears twice: keep one"
			}
			return strings.Trim(rest, `"`), kind + ": " + fix
		}
	}
	return "", msg
}

// jsonErr rewords a type error such as `json: cannot unmarshal string into Go
// struct field Stream.workloads.count of type int32`.
func jsonErr(err error) string {
	msg := err.Error()
	msg = strings.TrimPrefix(msg, "json: ")
	msg = strings.TrimPrefix(msg, "error unmarshaling JSON: while decoding JSON: json: ")
	return "wrong type: " + msg
}
