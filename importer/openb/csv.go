package openb

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// BadRow is a row of an input file that could not be used.
type BadRow struct {
	File string
	Line int
	Msg  string
}

func (b BadRow) String() string { return fmt.Sprintf("%s:%d: %s", b.File, b.Line, b.Msg) }

// RowsError lists the bad rows of an import.
type RowsError struct {
	Rows []BadRow
}

func (e *RowsError) Error() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%d bad rows (fix them, or pass --skip-bad to leave them out):", len(e.Rows))
	for i, r := range e.Rows {
		if i == maxListed {
			fmt.Fprintf(&sb, "\n  ... and %d more", len(e.Rows)-maxListed)
			break
		}
		sb.WriteString("\n  " + r.String())
	}
	return sb.String()
}

// maxListed bounds the bad rows an error message lists.
const maxListed = 50

// table is a CSV file read by column name, with each record's line.
type table struct {
	file    string
	columns map[string]int
	rows    [][]string
	lines   []int
}

// readTable reads a CSV file with a header naming at least the required
// columns. Records with the wrong number of fields are bad rows.
func readTable(path string, required []string) (*table, []BadRow, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("reading %s: %w", path, err)
	}
	defer f.Close()
	return parseTable(path, f, required)
}

func parseTable(name string, r io.Reader, required []string) (*table, []BadRow, error) {
	cr := csv.NewReader(r)
	cr.ReuseRecord = false
	header, err := cr.Read()
	if err != nil {
		return nil, nil, fmt.Errorf("reading the header of %s: %w", name, err)
	}
	t := &table{file: name, columns: map[string]int{}}
	for i, h := range header {
		t.columns[strings.TrimSpace(h)] = i
	}
	for _, c := range required {
		if _, ok := t.columns[c]; !ok {
			return nil, nil, fmt.Errorf("reading %s: the header has no column %q (it needs %s)", name, c, strings.Join(required, ","))
		}
	}
	var bad []BadRow
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		line, _ := cr.FieldPos(0)
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			bad = append(bad, BadRow{File: name, Line: pe.Line, Msg: pe.Err.Error()})
			continue
		}
		if err != nil {
			return nil, nil, fmt.Errorf("reading %s: %w", name, err)
		}
		t.rows = append(t.rows, rec)
		t.lines = append(t.lines, line)
	}
	return t, bad, nil
}

// get is a record's value of a column, "" when the file has no such column.
func (t *table) get(rec []string, col string) string {
	i, ok := t.columns[col]
	if !ok || i >= len(rec) {
		return ""
	}
	return strings.TrimSpace(rec[i])
}

// fields parses integer columns of one record, collecting problems.
type fields struct {
	t    *table
	rec  []string
	errs []string
}

// int reads a required non-negative integer.
func (f *fields) int(col string) int64 {
	s := f.t.get(f.rec, col)
	if s == "" {
		f.errs = append(f.errs, col+" is empty")
		return 0
	}
	return f.parse(col, s)
}

// optInt reads an optional non-negative integer; -1 when empty.
func (f *fields) optInt(col string) int64 {
	s := f.t.get(f.rec, col)
	if s == "" {
		return -1
	}
	return f.parse(col, s)
}

func (f *fields) parse(col, s string) int64 {
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		f.errs = append(f.errs, fmt.Sprintf("%s %q is not a whole number", col, s))
		return 0
	}
	if v < 0 {
		f.errs = append(f.errs, fmt.Sprintf("%s %d is negative", col, v))
		return 0
	}
	return v
}
