package plan

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"

	"sigs.k8s.io/yaml"

	"github.com/kueue-sim/kueue-sim/scenarios"
)

// SchemaVersion is the version of plan.json's layout.
const SchemaVersion = 1

// Plan is a sweep and what each of its runs gave.
type Plan struct {
	SchemaVersion int    `json:"schemaVersion"`
	Scenario      string `json:"scenario"`
	// Digest is the SHA-256 of the scenario file: shards of one sweep must
	// agree on it.
	Digest string   `json:"digest"`
	Vary   []string `json:"vary"`
	// Total counts the sweep's combinations; Shards lists the shards
	// whose outcomes are here ("" for the whole sweep).
	Total    int       `json:"total"`
	Shards   []string  `json:"shards"`
	Outcomes []Outcome `json:"outcomes"`
	// Missing lists combinations no shard ran.
	Missing []int `json:"missing,omitempty"`
	// Best is the index of the smallest configuration meeting every
	// expectation; nil when none did (or the sweep is incomplete and none
	// of what ran did).
	Best *int `json:"best"`
}

// Outcome is one combination's run.
type Outcome struct {
	Combination
	// Dir holds the run's scenario, logs and reports, relative to the
	// plan's folder.
	Dir string `json:"dir"`
	// ExitCode of `sim run`: 0 every expectation held, 1 one failed, 2
	// the varied scenario is invalid; Error says what went wrong otherwise.
	ExitCode int    `json:"exitCode"`
	Passed   bool   `json:"passed"`
	Error    string `json:"error,omitempty"`
	// Failed names the expectations that failed.
	Failed []string `json:"failed,omitempty"`
	// Resource is the resource the run's report focuses on (GPUs);
	// Capacity its amount in the cluster.
	Resource    string  `json:"resource,omitempty"`
	Capacity    float64 `json:"capacity"`
	Utilization float64 `json:"utilization"`
	P90Wait     float64 `json:"p90WaitSeconds"`
	MaxWait     float64 `json:"maxWaitSeconds"`
	// WallSeconds is how long the run took.
	WallSeconds float64 `json:"wallSeconds"`
}

// digest is the SHA-256 of a file's bytes.
func digest(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// Apply writes the scenario with c's settings to path and checks it is a
// valid scenario. The files the scenario names (queues.manifests,
// cluster.kueueConfig) are named by absolute paths in the copy, resolved
// against srcDir, the original's folder.
func Apply(data []byte, name string, varies []Vary, c Combination, path, srcDir string) error {
	data, err := scenarios.AbsoluteRefs(data, srcDir)
	if err != nil {
		return err
	}
	var doc map[string]any
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return fmt.Errorf("reading the scenario: %w", err)
	}
	byPath := map[string]Path{}
	for _, v := range varies {
		for _, p := range v.Paths {
			byPath[p.Raw] = p
		}
	}
	for _, s := range c.Settings {
		p := byPath[s.Path]
		v, err := p.Value(s.Value)
		if err != nil {
			return err
		}
		if err := p.Set(doc, v); err != nil {
			return err
		}
	}
	out, err := yaml.Marshal(doc)
	if err != nil {
		return fmt.Errorf("writing the varied scenario: %w", err)
	}
	if _, err := scenarios.Load(path, name, out); err != nil {
		return fmt.Errorf("combination %d (%s) makes an invalid scenario: %w", c.Index, describe(c), err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("making the run's folder: %w", err)
	}
	if err := os.WriteFile(path, out, 0o644); err != nil {
		return fmt.Errorf("writing the varied scenario: %w", err)
	}
	return nil
}

func describe(c Combination) string {
	s := ""
	for i, x := range c.Settings {
		if i > 0 {
			s += ", "
		}
		s += x.Path + "=" + x.Value
	}
	return s
}

// pickBest chooses the smallest passing configuration: the least capacity
// of the report's resource (GPUs), then the smallest values, compared in
// --vary order (numerically when both are numbers).
func (p *Plan) pickBest() {
	p.Best = nil
	var best *Outcome
	for i := range p.Outcomes {
		o := &p.Outcomes[i]
		if o.Passed && (best == nil || smaller(*o, *best)) {
			best = o
		}
	}
	if best != nil {
		idx := best.Index
		p.Best = &idx
	}
}

func smaller(a, b Outcome) bool {
	if a.Capacity != b.Capacity {
		return a.Capacity < b.Capacity
	}
	for i := range a.Settings {
		if i >= len(b.Settings) || a.Settings[i].Value == b.Settings[i].Value {
			continue
		}
		x, errX := strconv.ParseFloat(a.Settings[i].Value, 64)
		y, errY := strconv.ParseFloat(b.Settings[i].Value, 64)
		if errX == nil && errY == nil {
			return x < y
		}
		return a.Settings[i].Value < b.Settings[i].Value
	}
	return a.Index < b.Index
}

// sortOutcomes orders outcomes by index and lists the missing ones.
func (p *Plan) sortOutcomes() {
	sort.Slice(p.Outcomes, func(i, j int) bool { return p.Outcomes[i].Index < p.Outcomes[j].Index })
	have := map[int]bool{}
	for _, o := range p.Outcomes {
		have[o.Index] = true
	}
	p.Missing = nil
	for i := 0; i < p.Total; i++ {
		if !have[i] {
			p.Missing = append(p.Missing, i)
		}
	}
}

// Read loads a plan.json (or the one in a folder).
func Read(path string) (*Plan, error) {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		path = filepath.Join(path, JSONFile)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading plan: %w", err)
	}
	var p Plan
	if err := json.Unmarshal(data, &p); err != nil {
		return nil, fmt.Errorf("reading plan %s: %w", path, err)
	}
	if p.SchemaVersion != SchemaVersion {
		return nil, fmt.Errorf("reading plan %s: schema version %d, this kueue-sim reads %d", path, p.SchemaVersion, SchemaVersion)
	}
	return &p, nil
}
