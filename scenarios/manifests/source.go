package manifests

import (
	"fmt"
	"strings"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/kueue-sim/kueue-sim/scenarios/internal/yamlcheck"
)

// Source is where a manifest was written.
type Source struct {
	// File is the path of the file, as the scenario's directory and the
	// reference make it.
	File string
	// Doc is the document's index in the file, from 1; 0 in a file that
	// holds one object (a template).
	Doc int
	// Item is the object's index in a List document (kind: List), or -1.
	Item int
	// Line is the line the object starts on.
	Line int
}

// String is "FILE:LINE (document N)", or "FILE:LINE (document N, item I)";
// "FILE:LINE" in a file of one object.
func (s Source) String() string {
	if s.Doc == 0 {
		return fmt.Sprintf("%s:%d", s.File, s.Line)
	}
	return fmt.Sprintf("%s:%d (%s)", s.File, s.Line, s.where())
}

func (s Source) where() string {
	if s.Item >= 0 {
		return fmt.Sprintf("document %d, item %d", s.Doc, s.Item)
	}
	return fmt.Sprintf("document %d", s.Doc)
}

// Object is one decoded manifest.
type Object struct {
	// Obj is the typed object, in kueue.x-k8s.io/v1beta2 for Kueue's kinds,
	// with its TypeMeta cleared and what the cluster fills in dropped.
	Obj client.Object
	// Kind is the object's kind; APIVersion the version it was written in.
	Kind, APIVersion string
	Source           Source
	// lines finds the line of a field path of the object.
	lines *yamlcheck.Index
}

// Line is the line of a field path of the object (spec.resourceGroups[0]),
// or the object's first line.
func (o Object) Line(path string) int {
	if o.lines != nil {
		if l := o.lines.Line(path); l > 0 {
			return l
		}
	}
	return o.Source.Line
}

// Name is "Kind name", or "Kind namespace/name" for a namespaced object.
func (o Object) Name() string {
	if ns := o.Obj.GetNamespace(); ns != "" {
		return o.Kind + " " + ns + "/" + o.Obj.GetName()
	}
	return o.Kind + " " + o.Obj.GetName()
}

// Problem reports msg about the object's field path (e.g. spec.cohortName),
// "" for the object as a whole.
func (o Object) Problem(path, msg string) Problem {
	return Problem{File: o.Source.File, Line: o.Line(path), Doc: o.Source.Doc, Item: o.Source.Item, Field: path, Msg: msg}
}

// Problem is one problem with a manifest. File is "" for a problem with a
// reference itself (Field names queues.manifests[i], or the field LoadAt
// was given): the scenario file has it.
type Problem struct {
	File  string
	Line  int // 0 when unknown
	Doc   int // 0 for the file as a whole
	Item  int // -1 outside a List
	Field string
	Msg   string
}

// String formats p as FILE:LINE: document N: FIELD: MSG.
func (p Problem) String() string {
	var b strings.Builder
	b.WriteString(p.File)
	if p.Line > 0 {
		fmt.Fprintf(&b, ":%d", p.Line)
	}
	b.WriteString(": ")
	if p.Doc > 0 {
		b.WriteString(Source{Doc: p.Doc, Item: p.Item}.where() + ": ")
	}
	if p.Field != "" {
		b.WriteString(p.Field + ": ")
	}
	b.WriteString(p.Msg)
	return b.String()
}
