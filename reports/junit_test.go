package reports

import (
	"bytes"
	"encoding/xml"
	"testing"
	"time"

	"github.com/kueue-sim/kueue-sim/sim/expect"
)

// The JUnit XML has one case per expectation, a failure for each failed
// one, and parses back.
func TestWriteJUnit(t *testing.T) {
	var b bytes.Buffer
	err := WriteJUnit(&b, JUnitSuite{Scenario: "quickstart", Seed: 42, Wall: 1500 * time.Millisecond, Results: []expect.Result{
		{Name: "every-job-runs", Check: "counts", Passed: true, Message: "6 admitted"},
		{Name: "a100-busy", Check: "utilization", Message: "nvidia.com/gpu of flavor a100 42.0% used <min 90%>"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	var doc junitSuites
	if err := xml.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatalf("JUnit XML does not parse: %v\n%s", err, b.String())
	}
	s := doc.Suites[0]
	if doc.Tests != 2 || doc.Failures != 1 || s.Name != "kueue-sim.quickstart" || s.Time != "1.500" || len(s.Cases) != 2 {
		t.Fatalf("suite: %+v", doc)
	}
	if c := s.Cases[1]; c.Failure == nil || c.Failure.Type != "utilization" || c.Failure.Message != "nvidia.com/gpu of flavor a100 42.0% used <min 90%>" || c.ClassName != "kueue-sim.quickstart.utilization" {
		t.Errorf("failed case: %+v", c)
	}
	if s.Cases[0].Failure != nil {
		t.Errorf("passed case has a failure: %+v", s.Cases[0])
	}
}
