package upgrade

import (
	"bytes"
	"encoding/json"

	"github.com/kueue-sim/kueue-sim/reports/compare"
)

// SchemaVersion is the version of upgrade.json's layout. It changes when a
// field is renamed, removed or changes meaning; new fields keep it.
const SchemaVersion = 1

// document is upgrade.json: the whole report, every workload that differs
// included, with plain numbers where the other formats write text.
type document struct {
	SchemaVersion int            `json:"schemaVersion"`
	Scenario      string         `json:"scenario"`
	Seed          int64          `json:"seed"`
	From          string         `json:"from"`
	To            string         `json:"to"`
	Findings      []Finding      `json:"findings"`
	Compared      int            `json:"workloadsCompared"`
	Workloads     []WorkloadDiff `json:"workloads"`
	Metrics       []metricRow    `json:"metrics"`
	Notes         []string       `json:"notes,omitempty"`
	Breaches      int            `json:"breaches"`
	Passed        bool           `json:"passed"`
	Verdict       string         `json:"verdict"`
}

// metricRow is one metric under both releases; From or To is absent when
// only one run has the metric.
type metricRow struct {
	ID      string         `json:"id"`
	Metric  string         `json:"metric"`
	Unit    string         `json:"unit"`
	From    *float64       `json:"from,omitempty"`
	To      *float64       `json:"to,omitempty"`
	Status  compare.Status `json:"status"`
	Allowed string         `json:"allowed,omitempty"`
	Note    string         `json:"note,omitempty"`
}

// MarshalJSON writes the report as upgrade.json lays it out.
func (r *Report) MarshalJSON() ([]byte, error) {
	d := document{
		SchemaVersion: SchemaVersion,
		Scenario:      r.Scenario,
		Seed:          r.Seed,
		From:          r.From,
		To:            r.To,
		Findings:      append([]Finding{}, r.Findings...),
		Compared:      r.Compared,
		Workloads:     append([]WorkloadDiff{}, r.Workloads...),
		Metrics:       []metricRow{},
		Notes:         r.Metrics.Notes,
		Breaches:      r.Metrics.Breaches,
		Passed:        !r.Breached(),
		Verdict:       r.Verdict(),
	}
	for _, row := range r.Metrics.Rows {
		d.Metrics = append(d.Metrics, metricRow{ID: row.ID, Metric: row.Kind.Name, Unit: row.Kind.Unit, From: row.Base, To: row.New,
			Status: row.Status, Allowed: row.Allowed, Note: row.Note})
	}
	// "->" stays readable: upgrade.json is no HTML.
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(d); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}
