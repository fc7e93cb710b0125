package yamlcheck

import (
	"regexp"
	"strconv"

	"go.yaml.in/yaml/v3"
)

// MaxDepth bounds the aliases followed and the merged mappings looked
// into: deeper input is refused before anything reads it.
const MaxDepth = 32

// Index finds the line of a field path (workloads[2].arrival.every,
// queues.clusterQueues[0].resourceGroups[0].flavors[0].resources[nvidia.com/gpu])
// in the YAML source.
type Index struct {
	root *yaml.Node
	// keys index the keys of large mappings, built on first use.
	keys map[*yaml.Node]map[string]int
}

// NewIndex indexes the document whose root node is root.
func NewIndex(root *yaml.Node) *Index {
	return &Index{root: root, keys: map[*yaml.Node]map[string]int{}}
}

var pathStep = regexp.MustCompile(`([^.\[]+)|\[([^\]]*)\]`)

// Line returns the line of the deepest node of path that exists: the
// document's first line for a top-level field that is missing; 0 for the
// empty path or without a document. A mapping entry's line is its key's;
// aliases lead to their anchor.
func (l *Index) Line(path string) int {
	if l == nil || l.root == nil || path == "" {
		return 0
	}
	n := l.root
	best := n.Line
	for _, m := range pathStep.FindAllStringSubmatch(path, -1) {
		key := m[1] + m[2]
		n = Deref(n)
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

// Deref follows an alias to its anchor.
func Deref(n *yaml.Node) *yaml.Node {
	for i := 0; n.Kind == yaml.AliasNode && n.Alias != nil && i < MaxDepth; i++ {
		n = n.Alias
	}
	return n
}

// mapValue finds key's value in a mapping, looking into merged mappings
// (<<: *base) too, and the line of its key.
func (l *Index) mapValue(n *yaml.Node, key string, depth int) (*yaml.Node, int) {
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
		merged := []*yaml.Node{Deref(n.Content[i+1])}
		if merged[0].Kind == yaml.SequenceNode {
			merged = merged[0].Content
		}
		for _, mn := range merged {
			if mn = Deref(mn); mn.Kind == yaml.MappingNode {
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
func (l *Index) keyIndex(n *yaml.Node) map[string]int {
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

// Root is the document's root node.
func (l *Index) Root() *yaml.Node { return l.root }
