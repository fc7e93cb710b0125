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
	// keys index the keys of large mappings, built on first use.
	keys map[*yaml.Node]map[string]int
}

func newLineIndex(root *yaml.Node) *lineIndex {
	return &lineIndex{root: root, keys: map[*yaml.Node]map[string]int{}}
}

var pathStep = regexp.MustCompile(`([^.\[]+)|\[([^\]]*)\]`)

// line returns the line of the deepest node of path that exists: the
// document's first line for a top-level field that is missing; 0 for the
// empty path or without a document. A mapping entry's line is its key's;
// aliases lead to their anchor.
func (l *lineIndex) line(path string) int {
	if l == nil || l.root == nil || path == "" {
		return 0
	}
	n := l.root
	best := n.Line
	for _, m := range pathStep.FindAllStringSubmatch(path, -1) {
		key := m[1] + m[2]
		n = deref(n)
		var next *yaml.Node
		line := 0
		switch n.Kind {
		case yaml.MappingNode:
			next, line = l.mapValue(n, key, 0)
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
func (l *lineIndex) mapValue(n *yaml.Node, key string, depth int) (*yaml.Node, int) {
	if i, ok := l.keyIndex(n)[key]; ok {
		return n.Content[i+1], n.Content[i].Line
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
				if v, line := l.mapValue(mn, key, depth+1); v != nil {
					return v, line
				}
			}
		}
	}
	return nil, 0
}

// keyIndex maps the scalar keys of a mapping to their index in Content, the
// first of duplicates.
func (l *lineIndex) keyIndex(n *yaml.Node) map[string]int {
	if idx, ok := l.keys[n]; ok {
		return idx
	}
	idx := make(map[string]int, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		if k := n.Content[i]; k.Kind == yaml.ScalarNode {
			if _, dup := idx[k.Value]; !dup {
				idx[k.Value] = i
			}
		}
	}
	l.keys[n] = idx
	return idx
}
