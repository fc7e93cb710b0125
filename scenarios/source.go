package scenarios

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	yaml2 "go.yaml.in/yaml/v2"
	"go.yaml.in/yaml/v3"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/kueue-sim/kueue-sim/scenarios/internal/yamlcheck"
)

// Limits on the YAML source, checked before anything expands it.
const (
	// MaxFileSize bounds a scenario file; larger input is refused unread.
	MaxFileSize = 1 << 20
	// MaxExpandedSize bounds the size of the document once every alias
	// (*name) is replaced by what its anchor (&name) holds.
	MaxExpandedSize = 2 * MaxFileSize
	// MaxDepth bounds the nesting of mappings and lists (a scenario needs
	// about ten levels).
	MaxDepth = yamlcheck.MaxDepth
	// MaxNodes bounds the values (scalars, lists and mappings, aliases
	// expanded) of a document: room for a replayed trace of MaxStreamCount
	// workloads (arrival times and durations) and the rest of the scenario.
	MaxNodes = 250_000
)

// source is a parsed YAML scenario: its node tree, which maps field paths to
// lines and shows problems that decoding would hide or blow up on.
type source struct {
	lines *yamlcheck.Index
}

// parseSource parses data with yaml.v3 (which keeps aliases unexpanded) and
// checks what must be checked before the document is expanded and decoded:
// one document, bounded nesting and alias expansion. It returns fatal
// problems, and duplicate keys apart: decoding can go on after those.
func parseSource(data []byte) (src source, fatal, dups []Problem) {
	if len(data) > MaxFileSize {
		return source{}, []Problem{{Msg: fmt.Sprintf(
			"the input is %d bytes, over the %d-byte limit: split the scenario or generate workloads with arrival and count instead of listing them", len(data), MaxFileSize)}}, nil
	}
	dec := yaml.NewDecoder(strings.NewReader(string(data)))
	var docs []*yaml.Node
	for {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return source{}, []Problem{syntaxProblem(data, err)}, nil
		}
		if !emptyDocument(&doc) || len(docs) == 0 {
			docs = append(docs, &doc)
		}
	}
	if len(docs) == 0 || emptyDocument(docs[0]) {
		return source{}, []Problem{{Msg: "the file is empty: start from scenarios/quickstart.yaml"}}, nil
	}
	if len(docs) > 1 {
		return source{}, []Problem{{Line: docs[1].Content[0].Line, Msg: fmt.Sprintf(
			"a second YAML document starts here (after ---); a scenario file holds one: put each scenario in a file of its own")}}, nil
	}
	root := docs[0].Content[0]
	src = source{lines: yamlcheck.NewIndex(root)}
	m := measure{seen: map[*yaml.Node]extent{}, active: map[*yaml.Node]bool{}}
	ext := m.node(root)
	var probs []Problem
	if ext.depth > MaxDepth {
		probs = append(probs, Problem{Line: m.deepLine, Msg: fmt.Sprintf(
			"mappings and lists nest %d levels deep here, over the limit of %d: a scenario needs about ten", ext.depth, MaxDepth)})
	}
	if m.cycleLine > 0 {
		probs = append(probs, Problem{Line: m.cycleLine, Msg: "this alias (*name) is inside the value of its own anchor (&name), which would repeat forever: remove it"})
	}
	if ext.nodes > MaxNodes && ext.size <= MaxExpandedSize {
		probs = append(probs, Problem{Msg: fmt.Sprintf(
			"the document holds %d values (list items, mapping keys and values), over the limit of %d: generate workloads with arrival and count instead of listing them", ext.nodes, MaxNodes)})
	}
	if ext.size > MaxExpandedSize {
		probs = append(probs, Problem{Line: m.bigAlias, Msg: fmt.Sprintf(
			"the aliases (*name) expand the document to about %s, over the %d-byte limit: repeat fewer or smaller anchored values", approxBytes(ext.size), MaxExpandedSize)})
	}
	if len(probs) > 0 {
		return src, probs, nil
	}
	if line := complexKey(root); line > 0 {
		return src, []Problem{{Line: line, Msg: "a mapping key is a list or a mapping (? [a, b]): keys are plain names"}}, nil
	}
	return src, nil, duplicateKeys(nil, root, nil)
}

// emptyDocument tells an empty document (a comment, a lone ---) from one
// with content.
func emptyDocument(doc *yaml.Node) bool {
	if len(doc.Content) == 0 {
		return true
	}
	n := doc.Content[0]
	return n.Kind == yaml.ScalarNode && n.Tag == "!!null" && n.Value == "" && n.Anchor == ""
}

var yamlLine = regexp.MustCompile(`^(?:yaml: )?line (\d+): (.*)$`)

// syntaxProblem turns a YAML parser error ("yaml: line 3: mapping values
// are not allowed in this context") into a Problem on that line. yaml.v3
// gives the line where the enclosing block starts; yaml.v2 (the parser that
// decodes scenarios) the line of the problem, so its report is preferred.
func syntaxProblem(data []byte, err error) Problem {
	p := parseYAMLError(err)
	var probe struct{} // decoding into it expands no alias
	if err2 := yaml2.Unmarshal(data, &probe); err2 != nil && !strings.Contains(p.Msg, "end of stream") {
		// yaml.v3 reports the start of an unclosed scalar; v2 the end
		// of the file.
		var typeErr *yaml2.TypeError
		if p2 := parseYAMLError(err2); !errors.As(err2, &typeErr) && p2.Line > 0 {
			if parserProblems[p2.Msg] {
				p2.Line++
			}
			p = p2
		}
	}
	p.Msg = "not valid YAML: " + p.Msg
	switch line := sourceLine(data, p.Line); {
	case strings.Contains(line, "\t") && strings.Contains(p.Msg, "character"):
		p.Msg += ": YAML indents with spaces, not tabs"
	case strings.Contains(p.Msg, "end of stream") && p.Line > 0:
		p.Msg += ": a quote or bracket opened on this line is never closed"
	case strings.Contains(p.Msg, "expected ',' or"):
		p.Msg += ": a [list] or {mapping} opened before this line is not closed"
	case p.Line > 0:
		p.Msg += ": check the indentation, colons, quotes and brackets on this line and the one before"
	default:
		p.Msg += ": check the indentation, colons, quotes and brackets"
	}
	return p
}

// parserProblems are the problems go-yaml v2 reports on the line before the
// one at fault (it counts parser lines from 0, scanner lines from 1).
var parserProblems = map[string]bool{
	"did not find expected key": true, "did not find expected '-' indicator": true,
	"did not find expected ',' or ']'": true, "did not find expected ',' or '}'": true,
	"did not find expected node content": true, "did not find expected <document start>": true,
}

func parseYAMLError(err error) Problem {
	msg := strings.TrimPrefix(err.Error(), "error converting YAML to JSON: ")
	msg = strings.TrimPrefix(msg, "yaml: ")
	p := Problem{Msg: msg}
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		p.Line, _ = strconv.Atoi(m[1])
		p.Msg = m[2]
	}
	return p
}

// sourceLine is line n (from 1) of data, or "".
func sourceLine(data []byte, n int) string {
	if n < 1 {
		return ""
	}
	for i := 1; i < n; i++ {
		at := bytes.IndexByte(data, '\n')
		if at < 0 {
			return ""
		}
		data = data[at+1:]
	}
	line, _, _ := bytes.Cut(data, []byte("\n"))
	return string(line)
}

// extent is what a node becomes once its aliases are expanded.
type extent struct {
	size  int64 // bytes of JSON, roughly
	nodes int64
	depth int
}

// measure computes extents, each anchored node once, so that an alias bomb
// (each level nine aliases of the one before) costs what its text costs.
type measure struct {
	seen      map[*yaml.Node]extent
	active    map[*yaml.Node]bool // the nodes being measured: an alias to one is a cycle
	deepLine  int                 // a line at the deepest nesting
	bigAlias  int                 // the line of the alias with the largest expansion
	bigSize   int64
	cycleLine int // the line of an alias inside its own anchor
}

func (m *measure) node(n *yaml.Node) extent {
	if e, ok := m.seen[n]; ok {
		return e
	}
	var e extent
	switch n.Kind {
	case yaml.AliasNode:
		if n.Alias == nil {
			break
		}
		if m.active[n.Alias] {
			if m.cycleLine == 0 {
				m.cycleLine = n.Line
			}
			break
		}
		e = m.node(n.Alias)
		if e.size > m.bigSize {
			m.bigSize, m.bigAlias = e.size, n.Line
		}
	case yaml.ScalarNode:
		e = extent{size: int64(len(n.Value)) + 2, nodes: 1}
	default:
		m.active[n] = true
		e.size, e.nodes = 2, 1
		for _, c := range n.Content {
			ce := m.node(c)
			e.size = satAdd(e.size, ce.size+1)
			e.nodes = satAdd(e.nodes, ce.nodes)
			e.depth = max(e.depth, ce.depth)
		}
		e.depth++
		if e.depth > MaxDepth && m.deepLine == 0 {
			m.deepLine = n.Line
		}
		delete(m.active, n)
	}
	m.seen[n] = e
	return e
}

// satAdd adds without overflowing: sizes only need to be compared with a
// limit.
func satAdd(a, b int64) int64 {
	if a > (1<<62)-b {
		return 1 << 62
	}
	return a + b
}

func approxBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20:
		return fmt.Sprintf("%d MiB", n>>20)
	default:
		return fmt.Sprintf("%d bytes", n)
	}
}

var identifier = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9]*$`)

// duplicateKeys reports keys given twice in one mapping (the YAML to JSON
// conversion would silently keep the last). Aliased nodes are checked where
// their anchor is.
func duplicateKeys(p *field.Path, n *yaml.Node, probs []Problem) []Problem {
	switch n.Kind {
	case yaml.MappingNode:
		first := map[string]int{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			kp := p.Key(k.Value)
			if identifier.MatchString(k.Value) {
				kp = p.Child(k.Value)
			}
			if k.Kind == yaml.ScalarNode && k.Value != "<<" {
				if line, dup := first[k.Value]; dup {
					probs = append(probs, Problem{Line: k.Line, Field: kp.String(), Msg: fmt.Sprintf(
						"duplicate field: %q is already set at line %d: keep one", k.Value, line)})
				} else {
					first[k.Value] = k.Line
				}
			}
			probs = duplicateKeys(kp, n.Content[i+1], probs)
		}
	case yaml.SequenceNode:
		for i, c := range n.Content {
			probs = duplicateKeys(p.Index(i), c, probs)
		}
	}
	return probs
}

// nonFinite returns the line of the first .nan or .inf, which JSON cannot
// hold, or 0.
func (src source) nonFinite() int {
	if src.lines == nil {
		return 0
	}
	var find func(n *yaml.Node) int
	find = func(n *yaml.Node) int {
		if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!float" {
			if v := strings.ToLower(strings.TrimLeft(n.Value, "+-")); v == ".nan" || v == ".inf" {
				return n.Line
			}
		}
		for _, c := range n.Content {
			if line := find(c); line > 0 {
				return line
			}
		}
		return 0
	}
	return find(src.lines.Root())
}

// complexKey returns the line of the first mapping key that is a list or a
// mapping, which JSON cannot hold, or 0. Aliased keys are followed.
func complexKey(n *yaml.Node) int {
	if n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			if k := yamlcheck.Deref(n.Content[i]); k.Kind == yaml.MappingNode || k.Kind == yaml.SequenceNode {
				return n.Content[i].Line
			}
		}
	}
	for _, c := range n.Content {
		if line := complexKey(c); line > 0 {
			return line
		}
	}
	return 0
}
