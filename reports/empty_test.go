package reports

import (
	"testing"

	"github.com/kueue-sim/kueue-sim/sim/record"
)

// A run with nothing in it (no capacity, no workload, no time) still gets
// every file.
func TestEmptyRunWritesEveryFile(t *testing.T) {
	for name, events := range map[string][]record.Event{
		"header only": {{Type: record.TypeRun, Scenario: "empty"}},
		"an hour, no workload": {
			{Type: record.TypeRun, Scenario: "idle", Capacity: map[string]map[string]float64{"a100": {"nvidia.com/gpu": 8}}},
			{T: record.Duration(3600e9), Type: record.TypeEnd},
		},
	} {
		t.Run(name, func(t *testing.T) {
			r := Build(record.Build(events), nil)
			if err := r.WriteFiles(t.TempDir()); err != nil {
				t.Fatal(err)
			}
		})
	}
}
