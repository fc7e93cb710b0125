package reports

import (
	"encoding/xml"
	"fmt"
	"io"
	"time"

	"github.com/kueue-sim/kueue-sim/sim/expect"
)

// JUnit XML, as CI systems (Jenkins, GitLab, GitHub actions' test
// reporters) read it: one test suite per scenario, one test case per
// expectation; a failed expectation is a failure with its message.
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string          `xml:"name,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Errors     int             `xml:"errors,attr"`
	Time       string          `xml:"time,attr"`
	Properties []junitProperty `xml:"properties>property,omitempty"`
	Cases      []junitCase     `xml:"testcase"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	ClassName string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitFailure `xml:"failure,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// JUnitSuite names the suite of one scenario run.
type JUnitSuite struct {
	Scenario string
	Seed     int64
	// KueueVersion is the release of the Kueue that decided; no property
	// when empty.
	KueueVersion string
	// Wall is how long the run took.
	Wall    time.Duration
	Results []expect.Result
}

// WriteJUnit writes the expectations of a run as JUnit XML.
func WriteJUnit(w io.Writer, s JUnitSuite) error {
	suite := junitSuite{Name: "kueue-sim." + s.Scenario, Tests: len(s.Results), Time: seconds(s.Wall),
		Properties: []junitProperty{{Name: "scenario", Value: s.Scenario}, {Name: "seed", Value: fmt.Sprint(s.Seed)}}}
	if s.KueueVersion != "" {
		suite.Properties = append(suite.Properties, junitProperty{Name: "kueueVersion", Value: s.KueueVersion})
	}
	for _, r := range s.Results {
		c := junitCase{Name: r.Name, ClassName: "kueue-sim." + s.Scenario + "." + r.Check, Time: "0"}
		if r.Passed {
			c.SystemOut = r.Message
		} else {
			suite.Failures++
			c.Failure = &junitFailure{Message: r.Message, Type: r.Check, Text: r.Message}
		}
		suite.Cases = append(suite.Cases, c)
	}
	doc := junitSuites{Name: "kueue-sim", Tests: suite.Tests, Failures: suite.Failures, Time: suite.Time, Suites: []junitSuite{suite}}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return fmt.Errorf("writing JUnit XML: %w", err)
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return fmt.Errorf("writing JUnit XML: %w", err)
	}
	_, err := io.WriteString(w, "\n")
	return err
}

func seconds(d time.Duration) string { return fmt.Sprintf("%.3f", d.Seconds()) }
