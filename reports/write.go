package reports

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/kueue-sim/kueue-sim/sim/expect"
	"github.com/kueue-sim/kueue-sim/sim/record"
)

// File names in a report folder.
const (
	JSONFile         = "report.json"
	MarkdownFile     = "report.md"
	HTMLFile         = "report.html"
	EventsFile       = "events.jsonl"
	DecisionsFile    = "decisions.jsonl"
	ExpectationsFile = "expectations.json"
)

// WriteAll builds the report of run and writes report.json, report.md,
// report.html and the CSV files into dir (created if missing).
func WriteAll(dir string, run *record.Run, results []expect.Result) (*Report, error) {
	r := Build(run, results)
	if err := r.WriteFiles(dir); err != nil {
		return nil, err
	}
	return r, nil
}

// WriteFiles writes the report's files into dir.
func (r *Report) WriteFiles(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("making report folder: %w", err)
	}
	write := func(name string, f func(*bytes.Buffer) error) error {
		var buf bytes.Buffer
		if err := f(&buf); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, name), buf.Bytes(), 0o644); err != nil {
			return fmt.Errorf("writing %s: %w", name, err)
		}
		return nil
	}
	if err := write(JSONFile, func(b *bytes.Buffer) error {
		data, err := json.MarshalIndent(r, "", "  ")
		b.Write(append(data, '\n'))
		return err
	}); err != nil {
		return err
	}
	if err := write(MarkdownFile, func(b *bytes.Buffer) error { return r.WriteMarkdown(b) }); err != nil {
		return err
	}
	if err := write(HTMLFile, func(b *bytes.Buffer) error { return r.WriteHTML(b) }); err != nil {
		return err
	}
	for _, f := range csvFiles {
		if err := write(f.name, func(b *bytes.Buffer) error { return r.WriteCSV(f.name, b) }); err != nil {
			return err
		}
	}
	return nil
}

// LoadEvents reads an event log and, when an expectations.json lies beside
// it, the run's expectation results.
func LoadEvents(path string) (*record.Run, []expect.Result, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("opening event log: %w", err)
	}
	defer f.Close()
	events, err := record.Read(f)
	if err != nil {
		return nil, nil, fmt.Errorf("reading %s: %w", path, err)
	}
	if len(events) == 0 || events[0].Type != record.TypeRun {
		return nil, nil, fmt.Errorf("reading %s: not a kueue-sim event log (no Run header on its first line)", path)
	}
	var results []expect.Result
	data, err := os.ReadFile(filepath.Join(filepath.Dir(path), ExpectationsFile))
	switch {
	case err == nil:
		if err := json.Unmarshal(data, &results); err != nil {
			return nil, nil, fmt.Errorf("reading %s beside the event log: %w", ExpectationsFile, err)
		}
	case !errors.Is(err, fs.ErrNotExist):
		return nil, nil, fmt.Errorf("reading %s beside the event log: %w", ExpectationsFile, err)
	}
	return record.Build(events), results, nil
}

// Load reads a report: a report.json file, an events.jsonl file (the
// report is rebuilt), or a report folder holding either.
func Load(path string) (*Report, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("reading report: %w", err)
	}
	if st.IsDir() {
		for _, name := range []string{JSONFile, EventsFile} {
			if _, err := os.Stat(filepath.Join(path, name)); err == nil {
				return Load(filepath.Join(path, name))
			}
		}
		return nil, fmt.Errorf("reading report: folder %s has neither %s nor %s", path, JSONFile, EventsFile)
	}
	if filepath.Ext(path) == ".jsonl" {
		run, results, err := LoadEvents(path)
		if err != nil {
			return nil, err
		}
		return Build(run, results), nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading report: %w", err)
	}
	var r Report
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("reading report %s: %w", path, err)
	}
	if r.SchemaVersion != SchemaVersion {
		return nil, fmt.Errorf("reading report %s: schema version %d, this kueue-sim reads %d: rebuild it with `sim report EVENTS`", path, r.SchemaVersion, SchemaVersion)
	}
	return &r, nil
}
