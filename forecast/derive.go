package forecast

import (
	"fmt"
	"slices"
	"time"

	"go.yaml.in/yaml/v3"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kueue-sim/kueue-sim/scenarios"
)

// The forecast's scenario is the user's, with one stream more: the job,
// as a template stream of one arrival at the forecast's time. Everything
// else the scenario holds (its cluster, queues, streams and seed) stays
// as written, so the run that forecasts is a plain replay, and the same
// replay (`sim run` of the scenario written to the report) admits the job
// at the same simulated time.

// stream is the job's stream in the forecast's scenario.
type stream struct {
	Name     string         `yaml:"name"`
	Team     string         `yaml:"team"`
	Template string         `yaml:"template"`
	Queue    string         `yaml:"queue"`
	Arrival  map[string]any `yaml:"arrival"`
	Duration map[string]any `yaml:"duration"`
}

// streamName is a name no stream of s has: "forecast", or "forecast-N".
func streamName(s *scenarios.Scenario) string {
	taken := func(n string) bool {
		return slices.ContainsFunc(s.Workloads, func(w scenarios.Stream) bool { return w.Name == n })
	}
	name := "forecast"
	for i := 2; taken(name); i++ {
		name = fmt.Sprintf("forecast-%d", i)
	}
	return name
}

// derive is the scenario data base (the user's file, in folder dir) with
// st appended to its workloads and its end at end: aliases, comments and
// the order of everything else are kept, and the files it names
// (queues.manifests, cluster.kueueConfig, the streams' templates) are
// named by absolute paths, so that the scenario replays from any folder.
func derive(base []byte, st stream, end time.Duration, dir string) ([]byte, error) {
	return scenarios.EditYAML(base, dir, func(root *yaml.Node) error {
		var add yaml.Node
		if err := add.Encode(st); err != nil {
			return err
		}
		add.Style = 0
		setKey(root, "end", &yaml.Node{Kind: yaml.ScalarNode, Value: end.String()})
		if ws := scenarios.MappingValue(root, "workloads"); ws != nil && ws.Kind == yaml.SequenceNode {
			ws.Style = 0
			ws.Content = append(ws.Content, &add)
		} else {
			setKey(root, "workloads", &yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{&add}})
		}
		return nil
	})
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
