package suite

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/kueue-sim/kueue-sim/sim/record"
)

// Decisions reads a run's decisions.jsonl and returns, one JSON line each
// in file order, its decisions of the given types, with the namespace
// prefix of a run on an existing cluster (sim run --kubeconfig) removed so
// that runs on different targets compare line by line.
func Decisions(path, prefix string, types ...string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("reading decisions: %w", err)
	}
	defer f.Close()
	evs, err := record.Read(f)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	want := map[string]bool{}
	for _, t := range types {
		want[t] = true
	}
	var out []string
	for _, e := range evs {
		if !want[e.Type] {
			continue
		}
		e.Workload = strings.TrimPrefix(e.Workload, prefix)
		line, err := json.Marshal(e)
		if err != nil {
			return nil, fmt.Errorf("writing a decision of %s: %w", path, err)
		}
		out = append(out, string(line))
	}
	return out, nil
}
