package scenarios

import (
	"regexp"
	"strconv"

	"go.yaml.in/yaml/v3"
)

// lineIndex finds the line of a field path (workloads[2].arrival.every,
// queues.clusterQueues[0].resourceGroups[0].flavors[0].resources[nvidia.com/gpu])
// in the YAML source.
type lineIndex struct {
	root *yaml.Node
}

var pathStep = regexp.MustCompile(`([^.\[]+)|\[([^\]]*)\]`)

// line returns the line of the deepest node of path that exists: the
// document's first line for a top-level field that is missing; 0 for the
// empty path or without a document. A mapping entry's line is its key's;
// aliases lead to their anchor.
func (l lineIndex) line(path string) int {
	n := l.root
	if n == nil || path == "" {
		return 0
	}
	best := n.Line
	for _, m := range pathStep.FindAllStringSubmatch(path, -1) {
		key := m[1] + m[2]
		n = deref(n)
		var next *yaml.Node
		line := 0
		switch n.Kind {
		case yaml.MappingNode:
			next, line = mapValue(n, key, 0)
		case yaml.SequenceNode:
			if i, err := strconv.Atoi(m[2]); err == nil && m[2] != "" && i >= 0 && i < len(n.Content) {
				next = n.Content[i]
				line = next.Line
			}
		}
		if next == nil {
			break
		}
		n, best = next, line
	}
	return best
}

// deref follows an alias to its anchor.
func deref(n *yaml.Node) *yaml.Node {
	for i := 0; n.Kind == yaml.AliasNode && n.Alias != nil && i < MaxDepth; i++ {
		n = n.Alias
	}
	return n
}

// mapValue finds key's value in a mapping, looking into merged mappings
// (<<: *base) too, and the line of its key.
func mapValue(n *yaml.Node, key string, depth int) (*yaml.Node, int) {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key && n.Content[i].Kind == yaml.ScalarNode {
			return n.Content[i+1], n.Content[i].Line
		}
	}
	if depth >= MaxDepth {
		return nil, 0
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value != "<<" {
			continue
		}
		merged := []*yaml.Node{deref(n.Content[i+1])}
		if merged[0].Kind == yaml.SequenceNode {
			merged = merged[0].Content
		}
		for _, mn := range merged {
			if mn = deref(mn); mn.Kind == yaml.MappingNode {
				if v, line := mapValue(mn, key, depth+1); v != nil {
					return v, line
				}
			}
		}
	}
	return nil, 0
}
