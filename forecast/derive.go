package forecast

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"go.yaml.in/yaml/v3"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kueue-sim/kueue-sim/scenarios"
)

// The forecast's scenario is the user's, with one stream more per job: the
// job, as a template stream of one arrival at the forecast's time. The
// jobs' streams come last, in the jobs' order, and the replay submits
// arrivals of the same instant in the order of their streams, so Kueue
// sees the jobs in the order given. Everything else the scenario holds
// (its cluster, queues, streams and seed) stays as written, so the run
// that forecasts is a plain replay, and the same replay (`sim run` of the
// scenario written to the report) admits each job at the same simulated
// time.

// stream is the job's stream in the forecast's scenario.
type stream struct {
	Name     string         `yaml:"name"`
	Team     string         `yaml:"team"`
	Template string         `yaml:"template"`
	Queue    string         `yaml:"queue"`
	Arrival  map[string]any `yaml:"arrival"`
	Duration map[string]any `yaml:"duration"`
}

// streamNames are n stream names no stream of s has, one per job: a
// prefix ("forecast", or "forecast-N" when a stream of s has that name),
// then the prefix and "-1", "-2", ... for the jobs after the first.
func streamNames(s *scenarios.Scenario, n int) []string {
	taken := func(n string) bool {
		return slices.ContainsFunc(s.Workloads, func(w scenarios.Stream) bool { return w.Name == n })
	}
	names := func(prefix string) []string {
		out := []string{prefix}
		for i := 1; i < n; i++ {
			out = append(out, fmt.Sprintf("%s-%d", prefix, i))
		}
		return out
	}
	out := names("forecast")
	for i := 2; slices.ContainsFunc(out, taken); i++ {
		out = names(fmt.Sprintf("forecast-%d", i))
	}
	return out
}

// derive is the scenario data base (the user's file, in folder dir) with
// sts appended to its workloads and its end at end: aliases, comments and
// the order of everything else are kept, and the files it names
// (queues.manifests, cluster.kueueConfig, the streams' templates) are
// named by absolute paths, so that the scenario replays from any folder.
func derive(base []byte, sts []stream, end time.Duration, dir string) ([]byte, error) {
	return scenarios.EditYAML(base, dir, func(root *yaml.Node) error {
		add := make([]*yaml.Node, len(sts))
		for i, st := range sts {
			add[i] = &yaml.Node{}
			if err := add[i].Encode(st); err != nil {
				return err
			}
			add[i].Style = 0
		}
		setKey(root, "end", &yaml.Node{Kind: yaml.ScalarNode, Value: end.String()})
		if ws := scenarios.MappingValue(root, "workloads"); ws != nil && ws.Kind == yaml.SequenceNode {
			ws.Style = 0
			ws.Content = append(ws.Content, add...)
		} else {
			setKey(root, "workloads", &yaml.Node{Kind: yaml.SequenceNode, Content: add})
		}
		return nil
	})
}

// deriver derives each alternative's scenario from one forecast's
// inputs: the jobs, their streams' names, the scenario (base, its file's
// data), the request, where runs end, the work folder and the options.
type deriver struct {
	jobs  []*Job
	names []string
	base  *scenarios.Scenario
	data  []byte
	req   Request
	end   time.Duration
	work  string
	o     options
}

// alternative places each job, changed by t (alternative a; t is zero for
// the jobs as written), in the scenario, and derives the scenario that
// submits them all at req.At, one stream each, named names[i], in order.
// It checks that each job's ClusterQueue covers what it asks for.
func (d *deriver) alternative(t Try, a int) (Alternative, []byte, error) {
	jobs, names, base, data, req, end, work, o := d.jobs, d.names, d.base, d.data, d.req, d.end, d.work, d.o
	alt := Alternative{Name: "as written"}
	if t != (Try{}) {
		alt.Name = t.String()
	}
	queue := o.queue
	if t.Queue != "" {
		queue = t.Queue
	}
	streams := make([]stream, len(jobs))
	places := make([]placement, len(jobs))
	changed := 0
	for i, j := range jobs {
		file := filepath.Join(work, fmt.Sprintf("job-%d%s", a, filepath.Ext(j.Path)))
		if len(jobs) > 1 {
			file = filepath.Join(work, fmt.Sprintf("job-%d-%d%s", a, i, filepath.Ext(j.Path)))
		}
		n := 0
		if t != (Try{}) {
			var err error
			if n, err = t.apply(j, file); err != nil {
				return Alternative{}, nil, err
			}
			changed += n
		}
		if n == 0 {
			// As written: the file itself when it holds this job alone.
			if j.Doc > 0 {
				if err := os.WriteFile(file, j.data, 0o644); err != nil {
					return Alternative{}, nil, err
				}
			} else {
				file = j.Path
			}
		}
		pl, err := j.place(base, o.namespace, queue)
		if err != nil {
			return Alternative{}, nil, err
		}
		places[i] = pl
		streams[i] = stream{Name: names[i], Team: pl.team, Template: file, Queue: pl.queue,
			Arrival: map[string]any{"at": []string{req.At.String()}}, Duration: map[string]any{"fixed": o.duration.String()}}
		alt.Jobs = append(alt.Jobs, JobForecast{LocalQueue: pl.namespace + "/" + pl.queue,
			Workload: pl.namespace + "/" + scenarios.ArrivalName(names[i], 0)})
	}
	if t.Resource != "" && changed == 0 {
		what := "the " + jobs[0].Kind
		if len(jobs) > 1 {
			what = fmt.Sprintf("the %d jobs", len(jobs))
		}
		return Alternative{}, nil, &InputError{Err: fmt.Errorf("no container of %s asks for %s, so there is nothing to change: try a resource its containers ask for", what, t.Resource)}
	}
	derived, err := derive(data, streams, end, filepath.Dir(req.Scenario))
	if err != nil {
		return Alternative{}, nil, err
	}
	ds, err := scenarios.LoadIn(filepath.Dir(req.Scenario), req.Scenario, base.Name, derived)
	if err != nil {
		return Alternative{}, nil, err
	}
	first := len(ds.Workloads) - len(jobs)
	for i, j := range jobs {
		if err := j.covers(ds, places[i].clusterQueue, ds.Workloads[first+i].Template.Loaded.PodSets()); err != nil {
			return Alternative{}, nil, err
		}
	}
	return alt, derived, nil
}

// setKey sets key in mapping m to v, in place when m has it.
func setKey(m *yaml.Node, key string, v *yaml.Node) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			m.Content[i+1] = v
			return
		}
	}
	m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: key}, v)
}

// endOf is where the forecast's run ends: the forecast's horizon past its
// time, or the scenario's own end when that comes first. A time past the
// scenario's end is bad input.
func endOf(s *scenarios.Scenario, at, horizon time.Duration) (time.Duration, error) {
	end := at + horizon
	if s.End != nil {
		if se := s.End.Duration; at >= se {
			return 0, fmt.Errorf("--at %s is not before the scenario's end (%s): give an earlier time", at, se)
		} else if se < end {
			end = se
		}
	}
	return end, nil
}

// random tells whether s draws anything at random (Poisson arrivals,
// exponential, lognormal or empirical durations): only then do runs with other
// seeds differ.
func random(s *scenarios.Scenario) bool {
	for _, w := range s.Workloads {
		if w.Arrival.Poisson != nil {
			return true
		}
		if d := w.Duration; d != nil && (d.Exponential != nil || d.LogNormal != nil || distinct(d.Empirical)) {
			return true
		}
	}
	return false
}

// distinct tells whether the run times hold two different values: an
// empirical duration of one value draws nothing at random.
func distinct(ds []metav1.Duration) bool {
	for _, d := range ds[min(len(ds), 1):] {
		if d != ds[0] {
			return true
		}
	}
	return false
}
