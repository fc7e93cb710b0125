package forecast

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// notAdmitted is a random forecast of 4 runs, 2 of which never admit the
// job.
func notAdmitted() *Forecast {
	p50 := 60.0
	return &Forecast{Jobs: []JobInfo{{File: "job.yaml", Kind: "Job", Workload: jobName}}, Scenario: "scenario.yaml", Random: true,
		Alternatives: []Alternative{{Name: "as written", Jobs: []JobForecast{{LocalQueue: "research/gpu", Workload: jobName, Summary: Summary{
			Runs: 4, Admitted: 2, P50: &p50, ClusterQueue: "research", Flavors: "nvidia.com/gpu=a100", Share: 2,
			Preempted: []Count{{Workload: "research/low-0", Runs: 1}},
			Pending:   "couldn't assign flavors",
		}}}}}}
}

func TestWriteTextNotAdmitted(t *testing.T) {
	var b bytes.Buffer
	if err := WriteText(&b, notAdmitted()); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"(4 runs, one per seed)",
		"beyond horizon",
		"research (2/4 runs)",
		"preempted for it: research/low-0 (1/4 runs)",
		"not admitted within the horizon in 2 of 4 runs; Kueue's last word: couldn't assign flavors",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, b.String())
		}
	}
}

func TestWriteTextRefused(t *testing.T) {
	f := notAdmitted()
	f.Alternatives[0].Jobs[0].Summary.Refused = "denied"
	var b bytes.Buffer
	if err := WriteText(&b, f); err != nil {
		t.Fatal(err)
	}
	if want := "Kueue's last word: refused: denied"; !strings.Contains(b.String(), want) {
		t.Errorf("output lacks %q:\n%s", want, b.String())
	}
}

func TestWriteJSONNullPercentile(t *testing.T) {
	var b bytes.Buffer
	if err := WriteJSON(&b, notAdmitted()); err != nil {
		t.Fatal(err)
	}
	var back struct {
		Alternatives []struct {
			Jobs []struct {
				Summary map[string]any `json:"summary"`
			} `json:"jobs"`
		} `json:"alternatives"`
	}
	if err := json.Unmarshal(b.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	s := back.Alternatives[0].Jobs[0].Summary
	if v, ok := s["p90WaitSeconds"]; !ok || v != nil {
		t.Errorf("p90WaitSeconds: got %v (present %v), want null", v, ok)
	}
	if s["p50WaitSeconds"] != 60.0 {
		t.Errorf("p50WaitSeconds: got %v, want 60", s["p50WaitSeconds"])
	}
}
