package upgrade

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// File names in an upgrade report folder, beside the two runs' folders.
const (
	MarkdownFile = "upgrade.md"
	JSONFile     = "upgrade.json"
	HTMLFile     = "upgrade.html"
	JUnitFile    = "junit.xml"
)

// WriteFiles writes upgrade.md, upgrade.json, upgrade.html and junit.xml
// into dir (created if missing). The same report writes the same bytes:
// everything is sorted and no wall-clock time is written.
func (r *Report) WriteFiles(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("making the upgrade report folder: %w", err)
	}
	files := []struct {
		name  string
		write func(*bytes.Buffer) error
	}{
		{MarkdownFile, func(b *bytes.Buffer) error { return r.WriteMarkdown(b) }},
		{JSONFile, r.writeJSON},
		{HTMLFile, func(b *bytes.Buffer) error { return r.WriteHTML(b) }},
		{JUnitFile, func(b *bytes.Buffer) error { return r.WriteJUnit(b) }},
	}
	for _, f := range files {
		var b bytes.Buffer
		if err := f.write(&b); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, f.name), b.Bytes(), 0o644); err != nil {
			return fmt.Errorf("writing %s: %w", f.name, err)
		}
	}
	return nil
}

// writeJSON writes upgrade.json, indented for a person and for diffs.
func (r *Report) writeJSON(b *bytes.Buffer) error {
	data, err := r.MarshalJSON()
	if err != nil {
		return fmt.Errorf("writing %s: %w", JSONFile, err)
	}
	if err := json.Indent(b, data, "", "  "); err != nil {
		return fmt.Errorf("writing %s: %w", JSONFile, err)
	}
	b.WriteByte('\n')
	return nil
}
