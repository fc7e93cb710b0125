package forecast

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"
	corev1 "k8s.io/api/core/v1"

	"github.com/kueue-sim/kueue-sim/scenarios"
	"github.com/kueue-sim/kueue-sim/scenarios/manifests"
)

// QueueLabel is the label naming a job's LocalQueue.
const QueueLabel = "kueue.x-k8s.io/queue-name"

var queueLabelPath = "metadata.labels[" + QueueLabel + "]"

// Job is one object of the user's job files, decoded the way a templated
// stream's object is (manifests.DecodeTemplate): an object of a kind
// kueue-sim submits.
type Job struct {
	// Path is the file, absolute.
	Path string
	// Doc is the object's document in the file, from 1; 0 in a file that
	// holds one object.
	Doc int
	// Kind and Name are the object's.
	Kind, Name string
	// Namespace and Queue are the object's namespace and queue label as
	// written ("" when it has none).
	Namespace, Queue string

	obj *manifests.Object
	// shown names the file in messages: as the user gave it, or
	// "<stdin>"; "" for display's default.
	shown string
	// data is the object's document, preceded by as many empty lines as
	// come before it in the file, so that its lines are the file's.
	data []byte
}

// LoadJob reads one job file. A file that does not decode, holds no
// object of a kind kueue-sim submits, or more than one, is an *InputError
// naming the file and line.
func LoadJob(path string) (*Job, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("job file %s: %w", path, err)
	}
	obj, probs := manifests.LoadTemplate(filepath.Dir(abs), abs)
	if len(probs) > 0 {
		return nil, &InputError{Problems: relabel(probs, abs, path)}
	}
	data, err := os.ReadFile(abs)
	if err != nil {
		return nil, fmt.Errorf("job file %s: %w", path, err)
	}
	return newJob(abs, obj, data), nil
}

// LoadJobs reads a job file of one or more YAML documents, each one job,
// in the order written. shown names the file in messages; "" for path as
// given. A document that does not decode, or holds no object of a kind
// kueue-sim submits, is an *InputError naming the file, line and, in a
// file of several, the document.
func LoadJobs(path, shown string) ([]*Job, error) {
	if shown == "" {
		shown = path
	}
	name := shown
	fail := func(msg string) error {
		return &InputError{Problems: []manifests.Problem{{File: name, Item: -1, Msg: msg}}}
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("job file %s: %w", name, err)
	}
	info, err := os.Stat(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fail("no such file")
	case err != nil:
		return nil, fail(err.Error())
	case info.IsDir():
		return nil, fail("a folder: give job files, each of one or more YAML documents")
	case info.Size() > manifests.MaxFileSize:
		return nil, fail(fmt.Sprintf("the file is %d bytes, over the %d-byte limit", info.Size(), manifests.MaxFileSize))
	}
	data, err := os.ReadFile(abs)
	if err != nil {
		return nil, fail(err.Error())
	}
	docs := documents(data)
	if len(docs) <= 1 {
		obj, probs := manifests.DecodeTemplate(abs, data)
		if len(probs) > 0 {
			return nil, &InputError{Problems: relabel(probs, abs, name)}
		}
		j := newJob(abs, obj, data)
		j.shown = shown
		return []*Job{j}, nil
	}
	var jobs []*Job
	var probs []manifests.Problem
	for i, doc := range docs {
		obj, ps := manifests.DecodeTemplate(abs, doc)
		for k := range ps {
			ps[k].Doc = i + 1
		}
		if len(ps) > 0 {
			probs = append(probs, relabel(ps, abs, name)...)
			continue
		}
		obj.Source.Doc = i + 1
		j := newJob(abs, obj, doc)
		j.Doc, j.shown = i+1, shown
		jobs = append(jobs, j)
	}
	if len(probs) > 0 {
		return nil, &InputError{Problems: probs}
	}
	return jobs, nil
}

// loadJobs loads the request's jobs, in order: "-" is stdin, saved in the
// forecast's folder work as StdinFile so that the runs' scenarios name a
// file that stays with them.
func loadJobs(req Request, work string) ([]*Job, error) {
	var jobs []*Job
	for _, path := range req.Jobs {
		shown := ""
		if path == "-" {
			if req.Stdin == nil {
				return nil, &InputError{Err: errors.New("-: no stdin to read the jobs from")}
			}
			path, shown = filepath.Join(work, StdinFile), StdinName
			if err := save(req.Stdin, path); err != nil {
				return nil, fmt.Errorf("reading the jobs from stdin: %w", err)
			}
		}
		js, err := LoadJobs(path, shown)
		if err != nil {
			return nil, err
		}
		jobs = append(jobs, js...)
	}
	return jobs, nil
}

// save copies r to the file path, at most one byte over the size limit
// of a job file (LoadJobs refuses it).
func save(r io.Reader, path string) error {
	fh, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := io.Copy(fh, io.LimitReader(r, manifests.MaxFileSize+1)); err != nil {
		fh.Close()
		return err
	}
	return fh.Close()
}

func newJob(abs string, obj *manifests.Object, data []byte) *Job {
	return &Job{Path: abs, Kind: obj.Kind, Name: obj.Obj.GetName(), Namespace: obj.Obj.GetNamespace(),
		Queue: obj.Obj.GetLabels()[QueueLabel], obj: obj, data: data}
}

// documentStart is a line that starts a YAML document. YAML forbids it
// inside a quoted scalar, and a block scalar's lines are indented, so it
// splits a stream of documents wherever it stands.
var documentStart = regexp.MustCompile(`^---(\s|$)`)

// documents splits a YAML stream into its documents that hold something
// (not only comments, or an empty --- document), each preceded by as many
// empty lines as come before it, so that a document's lines are the
// stream's. A document that does not parse is kept: decoding it says
// where.
func documents(data []byte) [][]byte {
	lines := bytes.SplitAfter(data, []byte("\n"))
	var out [][]byte
	start := 0
	flush := func(end int) {
		doc := append(bytes.Repeat([]byte("\n"), start), bytes.Join(lines[start:end], nil)...)
		var n yaml.Node
		err := yaml.Unmarshal(doc, &n)
		if err != nil || (len(n.Content) > 0 && !(n.Content[0].Kind == yaml.ScalarNode && n.Content[0].Tag == "!!null")) {
			out = append(out, doc)
		}
	}
	for i, line := range lines {
		if i > start && documentStart.Match(line) {
			flush(i)
			start = i
		}
	}
	flush(len(lines))
	return out
}

// relabel names a problem with the file abs as name, the file as the user
// knows it, and a problem with the reference itself as the job file's.
func relabel(probs []manifests.Problem, abs, name string) []manifests.Problem {
	out := make([]manifests.Problem, len(probs))
	for i, p := range probs {
		if p.File == "" || p.File == abs {
			p.File = name
		}
		out[i] = p
	}
	return out
}

// problem is a problem with the job's field path (or the whole object).
func (j *Job) problem(path, msg string) *InputError {
	p := j.obj.Problem(path, msg)
	p.File = j.display()
	return &InputError{Problems: []manifests.Problem{p}}
}

// display is the job file's path as the user would recognise it: relative
// to the working directory when it lies below it.
func (j *Job) display() string {
	if j.shown != "" {
		return j.shown
	}
	if wd, err := filepath.Abs("."); err == nil {
		if rel, err := filepath.Rel(wd, j.Path); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return rel
		}
	}
	return j.Path
}

// placement is where the job goes in the scenario: the team whose
// namespace it is submitted to, and its LocalQueue there.
type placement struct {
	team, namespace, queue, clusterQueue string
}

// place finds the team and LocalQueue of the job in s: the job's
// namespace (or namespace, when the job names none) must be a team's, and
// queue (the job's label unless overridden) one of that namespace's
// LocalQueues. Without a namespace either way, the one team with a
// LocalQueue of that name is taken.
func (j *Job) place(s *scenarios.Scenario, namespace, queue string) (placement, error) {
	if queue == "" {
		queue = j.Queue
	}
	targets := s.LocalQueueTargets()
	if queue == "" {
		return placement{}, j.problem("metadata.labels", fmt.Sprintf(
			"the %s has no %s label, so Kueue would not queue it: add the label naming one of the scenario's LocalQueues (%s), or give --queue",
			j.Kind, QueueLabel, strings.Join(sortedKeys(targets), ", ")))
	}
	ns := j.Namespace
	if ns == "" {
		ns = namespace
	} else if namespace != "" && namespace != ns {
		return placement{}, j.problem("metadata.namespace", fmt.Sprintf(
			"%s, but --namespace says %s: remove one of them", ns, namespace))
	}
	if ns == "" {
		var found []string
		for key := range targets {
			if n, q, _ := strings.Cut(key, "/"); q == queue {
				found = append(found, n)
			}
		}
		sort.Strings(found)
		switch len(found) {
		case 0:
			return placement{}, j.problem(queueLabelPath, fmt.Sprintf(
				"%s: no namespace of the scenario has a LocalQueue of that name: name one of %s", queue, strings.Join(sortedKeys(targets), ", ")))
		case 1:
			ns = found[0]
		default:
			return placement{}, j.problem("metadata", fmt.Sprintf(
				"the %s names no namespace and LocalQueue %s exists in several (%s): set metadata.namespace or give --namespace",
				j.Kind, queue, strings.Join(found, ", ")))
		}
	}
	idx := slices.IndexFunc(s.Teams, func(t scenarios.Team) bool { return t.Namespace == ns })
	if idx < 0 {
		var nss []string
		for _, t := range s.Teams {
			nss = append(nss, t.Namespace)
		}
		return placement{}, j.problem("metadata.namespace", fmt.Sprintf(
			"%s is no team's namespace in the scenario: use one of %s", ns, strings.Join(nss, ", ")))
	}
	cq, ok := targets[ns+"/"+queue]
	if !ok {
		var here []string
		for key := range targets {
			if n, q, _ := strings.Cut(key, "/"); n == ns {
				here = append(here, q)
			}
		}
		sort.Strings(here)
		return placement{}, j.problem(queueLabelPath, fmt.Sprintf(
			"%s: namespace %s has no LocalQueue of that name (it has: %s): name one of them", queue, ns, strings.Join(here, ", ")))
	}
	return placement{team: s.Teams[idx].Name, namespace: ns, queue: queue, clusterQueue: cq}, nil
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if len(keys) == 0 {
		return []string{"none"}
	}
	return keys
}

// InputError is bad input: the job, the scenario or an option. Its
// problems name the file, line and field.
type InputError struct {
	Problems []manifests.Problem
	// Err is an input error that is not about a file's field (a flag's
	// value); nil when Problems say it all.
	Err error
}

func (e *InputError) Error() string {
	if e.Err != nil {
		return e.Err.Error()
	}
	lines := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		lines[i] = p.String()
	}
	return strings.Join(lines, "\n")
}

func (e *InputError) Unwrap() error { return e.Err }

// covers checks that the job's ClusterQueue cq in s has quota for every
// resource the job's pods ask for (sets, as the scenario's loader reads
// them): Kueue never admits a workload asking for a resource its
// ClusterQueue does not cover, which is a mistake in the job or the
// queue, not a forecast.
func (j *Job) covers(s *scenarios.Scenario, cq string, sets []scenarios.TemplatePodSet) error {
	covered := map[string]bool{}
	known := false
	for _, q := range s.Queues.ClusterQueues {
		if q.Name != cq {
			continue
		}
		known = true
		for _, g := range q.ResourceGroups {
			for _, f := range g.Flavors {
				for r := range f.Resources {
					covered[string(r)] = true
				}
			}
		}
	}
	for _, q := range s.Loaded.Manifests.ClusterQueues() {
		if q.Obj.Name != cq {
			continue
		}
		known = true
		for _, g := range q.Obj.Spec.ResourceGroups {
			for _, r := range g.CoveredResources {
				covered[string(r)] = true
			}
		}
	}
	if !known {
		return nil
	}
	for _, ps := range sets {
		spec := ps.Template.Spec
		for _, c := range append(append([]corev1.Container(nil), spec.InitContainers...), spec.Containers...) {
			for _, r := range slices.Sorted(maps.Keys(c.Resources.Requests)) {
				if q := c.Resources.Requests[r]; q.IsZero() || covered[string(r)] {
					continue
				}
				return &InputError{Problems: []manifests.Problem{{File: j.display(), Line: j.lineOf(string(r)), Item: -1,
					Doc: j.Doc, Field: fmt.Sprintf("containers[%s].resources.requests[%s]", c.Name, r),
					Msg: fmt.Sprintf("ClusterQueue %s has no quota for %s (it covers %s), so Kueue never admits the %s: remove the request or send the job to a LocalQueue whose ClusterQueue covers it",
						cq, r, strings.Join(slices.Sorted(maps.Keys(covered)), ", "), j.Kind)}}}
			}
		}
	}
	return nil
}

// lineOf is the first line of the job's document that names key as a
// mapping key, or the object's first line.
func (j *Job) lineOf(key string) int {
	for i, line := range strings.Split(string(j.data), "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, key+":") || strings.Contains(t, " "+key+":") || strings.Contains(t, "{"+key+":") || strings.Contains(t, `"`+key+`":`) {
			return i + 1
		}
	}
	return j.obj.Source.Line
}

// Where names the job for a reader: its file as the user knows it, and
// its document in a file of several.
func (j *Job) Where() string {
	if j.Doc > 0 {
		return fmt.Sprintf("%s, document %d", j.display(), j.Doc)
	}
	return j.display()
}
