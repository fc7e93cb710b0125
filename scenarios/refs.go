package scenarios

import (
	"bytes"
	"fmt"
	"path/filepath"

	"go.yaml.in/yaml/v3"
)

// AbsoluteRefs is the scenario data with the files it names
// (queues.manifests, cluster.kueueConfig, the changes' apply files, the
// streams' templates) named by absolute paths, relative to dir, so that a
// copy of it written elsewhere (a sim plan combination, a sim forecast
// run) reads the same files.
// Comments, anchors and the order of everything else are kept; a path
// given through an alias is made absolute at its anchor.
func AbsoluteRefs(data []byte, dir string) ([]byte, error) {
	return EditYAML(data, dir, nil)
}

// EditYAML is AbsoluteRefs followed by edit, which changes the scenario's
// top-level mapping in place (nil: no change), in one read and one write
// of the YAML: what writes a scenario derived from the user's file (sim
// forecast adds a stream) keeps its comments, anchors and order.
func EditYAML(data []byte, dir string, edit func(root *yaml.Node) error) ([]byte, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("resolving %s: %w", dir, err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("reading the scenario: %w", err)
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, fmt.Errorf("the scenario is not a mapping")
	}
	root := doc.Content[0]
	abs := func(n *yaml.Node) {
		if n != nil && n.Kind == yaml.AliasNode {
			n = n.Alias
		}
		if n != nil && n.Kind == yaml.ScalarNode && n.Value != "" && !filepath.IsAbs(n.Value) {
			n.Value, n.Style = filepath.Join(dir, n.Value), 0
		}
	}
	if m := MappingValue(MappingValue(root, "queues"), "manifests"); m != nil && m.Kind == yaml.SequenceNode {
		for _, n := range m.Content {
			abs(n)
		}
	}
	abs(MappingValue(MappingValue(root, "cluster"), "kueueConfig"))
	if cs := MappingValue(root, "changes"); cs != nil && cs.Kind == yaml.SequenceNode {
		for _, c := range cs.Content {
			if a := MappingValue(c, "apply"); a != nil && a.Kind == yaml.SequenceNode {
				for _, n := range a.Content {
					abs(n)
				}
			}
		}
	}
	if ws := MappingValue(root, "workloads"); ws != nil && ws.Kind == yaml.SequenceNode {
		for _, w := range ws.Content {
			abs(MappingValue(w, "template"))
		}
	}
	if edit != nil {
		if err := edit(root); err != nil {
			return nil, err
		}
	}
	var out bytes.Buffer
	enc := yaml.NewEncoder(&out)
	enc.SetIndent(2)
	if err := enc.Encode(&doc); err != nil {
		return nil, err
	}
	return out.Bytes(), enc.Close()
}

// MappingValue is the value of key in mapping m (through an alias), or nil.
func MappingValue(m *yaml.Node, key string) *yaml.Node {
	if m != nil && m.Kind == yaml.AliasNode {
		m = m.Alias
	}
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}
