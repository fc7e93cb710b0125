package scenarios

import (
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// lineIndex finds the line of a field path (workloads[2].arrival.every) in
// the YAML source.
type lineIndex struct {
	root *yaml.Node
}

func newLineIndex(data []byte) lineIndex {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil || len(doc.Content) == 0 {
		return lineIndex{}
	}
	return lineIndex{root: doc.Content[0]}
}

var pathStep = regexp.MustCompile(`([^.\[]+)|\[(\d+)\]|\[([^\]]*)\]`)

// line returns the line of the deepest node of path that exists, or 0.
func (l lineIndex) line(path string) int {
	n := l.root
	if n == nil {
		return 0
	}
	best := 0
	for _, m := range pathStep.FindAllStringSubmatch(path, -1) {
		var next *yaml.Node
		switch {
		case m[1] != "" && n.Kind == yaml.MappingNode:
			next = mapValue(n, m[1])
		case m[2] != "" && n.Kind == yaml.SequenceNode:
			if i, _ := strconv.Atoi(m[2]); i < len(n.Content) {
				next = n.Content[i]
			}
		case m[3] != "" && n.Kind == yaml.MappingNode:
			next = mapValue(n, strings.Trim(m[3], `"`))
		}
		if next == nil {
			break
		}
		n, best = next, next.Line
	}
	return best
}

func mapValue(n *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			// The key's line reads better than a block value's first line.
			v := *n.Content[i+1]
			v.Line = n.Content[i].Line
			return &v
		}
	}
	return nil
}

func (l lineIndex) problems(errs field.ErrorList) []Problem {
	out := make([]Problem, 0, len(errs))
	for _, e := range errs {
		msg := e.ErrorBody()
		out = append(out, Problem{Line: l.line(e.Field), Field: e.Field, Msg: msg})
	}
	return out
}
