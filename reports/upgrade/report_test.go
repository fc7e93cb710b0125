package upgrade

import (
	"bytes"
	"encoding/json"
	"flag"
	"github.com/kueue-sim/kueue-sim/reports/compare"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the report's output")

// findings are a caller's findings, as `sim upgrade` would make them.
var findings = []Finding{{
	Kind: "Default", Name: "waitForPodsReady", From: "absent", To: "enabled, timeout 5m",
	Detail: "Workloads whose pods are not all ready within 5m are evicted; set waitForPodsReady.enable: false to keep the old behaviour.",
}}

func build(t *testing.T, findings []Finding) *Report {
	t.Helper()
	r, err := Build(filepath.Join("testdata", "from"), filepath.Join("testdata", "to"), findings, nil)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// checkGolden compares got with testdata/name; -update rewrites it: read
// the diff before committing it.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v: run with -update to write it", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s differs (-want +got):\n%s", path, diff)
	}
}

func TestMarkdownGolden(t *testing.T) {
	var b bytes.Buffer
	if err := build(t, findings).WriteMarkdown(&b); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "upgrade.md.golden", b.Bytes())
}

func TestTextGolden(t *testing.T) {
	var b bytes.Buffer
	if err := build(t, findings).WriteText(&b); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "upgrade.txt.golden", b.Bytes())
}

// Two reports built from the same folders write the same bytes: nothing
// depends on map order or the clock.
func TestWriteFilesIsDeterministic(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	if err := build(t, findings).WriteFiles(a); err != nil {
		t.Fatal(err)
	}
	if err := build(t, findings).WriteFiles(b); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{MarkdownFile, JSONFile, HTMLFile, JUnitFile} {
		x, err := os.ReadFile(filepath.Join(a, name))
		if err != nil {
			t.Fatal(err)
		}
		y, err := os.ReadFile(filepath.Join(b, name))
		if err != nil {
			t.Fatal(err)
		}
		if len(x) == 0 || !bytes.Equal(x, y) {
			t.Errorf("%s: %d and %d bytes, not identical", name, len(x), len(y))
		}
	}
}

// The testdata's new release leaves a workload pending and evicts
// another: the built-in rules fail the rehearsal on the metrics, and
// junit.xml fails those cases only; the decisions case passes.
func TestBreachFailsOnlyMetrics(t *testing.T) {
	r, err := Build(filepath.Join("testdata", "from"), filepath.Join("testdata", "to"), nil, &compare.Thresholds{})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Breached() {
		t.Fatal("no breach: the new run leaves a workload pending")
	}
	var b bytes.Buffer
	if err := r.WriteJUnit(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{`name="kueue-sim.training upgrade v0.17.0 -&gt; v0.19.2"`, `<testcase name="pending_at_end"`, `<failure message="v0.17.0 0, v0.19.2 1`,
		`<testcase name="decisions" classname="kueue-sim.training upgrade v0.17.0 -&gt; v0.19.2.decisions" time="0">`, "4 of 7 workloads decide differently"} {
		if !strings.Contains(out, want) {
			t.Errorf("junit.xml lacks %q:\n%s", want, out)
		}
	}
	if strings.Count(out, "<failure") != r.Metrics.Breaches {
		t.Errorf("%d failures for %d breaches:\n%s", strings.Count(out, "<failure"), r.Metrics.Breaches, out)
	}
}

// A release that decides alike passes, with every section saying so.
func TestAlikePasses(t *testing.T) {
	from := filepath.Join("testdata", "from")
	r, err := Build(from, from, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.Breached() || len(r.Workloads) != 0 || r.Compared != 7 {
		t.Fatalf("breached %v, %d of %d workloads differ", r.Breached(), len(r.Workloads), r.Compared)
	}
	var b bytes.Buffer
	if err := r.WriteMarkdown(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"None: v0.17.0 reads this configuration", "None: every one of the 7 workloads was decided alike", "**PASS: no metric breached"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("upgrade.md lacks %q:\n%s", want, b.String())
		}
	}
}

// upgrade.json holds every workload, with both stories, and writes "->"
// as such.
func TestJSON(t *testing.T) {
	var b bytes.Buffer
	if err := build(t, findings).writeJSON(&b); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		SchemaVersion int       `json:"schemaVersion"`
		From          string    `json:"from"`
		To            string    `json:"to"`
		Findings      []Finding `json:"findings"`
		Workloads     []struct {
			Workload string `json:"workload"`
			Changes  []struct {
				At   float64    `json:"at"`
				Kind ChangeKind `json:"kind"`
			} `json:"changes"`
			From *Story `json:"from"`
			To   *Story `json:"to"`
		} `json:"workloads"`
		Metrics []struct {
			ID string `json:"id"`
		} `json:"metrics"`
		Passed bool `json:"passed"`
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.SchemaVersion != SchemaVersion || doc.From != "v0.17.0" || doc.To != "v0.19.2" || len(doc.Findings) != 1 || len(doc.Workloads) != 4 || len(doc.Metrics) == 0 || !doc.Passed {
		t.Errorf("upgrade.json: %+v", doc)
	}
	if w := doc.Workloads[3]; w.Workload != "team-a/starved" || w.Changes[0].At != 4200 || w.Changes[0].Kind != NeverAdmitted || w.From == nil || w.To == nil || !w.To.PendingAtEnd {
		t.Errorf("team-a/starved in upgrade.json: %+v", w)
	}
	if !strings.Contains(b.String(), "a100 -> h100") {
		t.Errorf("upgrade.json escapes \"->\":\n%s", b.String())
	}
}

// The listing stops at maxListed workloads in upgrade.md and says how many
// more upgrade.json has.
func TestMarkdownCapsTheListing(t *testing.T) {
	r := build(t, nil)
	one := r.Workloads[0]
	r.Workloads = nil
	for range maxListed + 5 {
		r.Workloads = append(r.Workloads, one)
	}
	var b bytes.Buffer
	if err := r.WriteMarkdown(&b); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(b.String(), "| `team-a/flavor` |"); n != maxListed {
		t.Errorf("%d workloads listed, want %d", n, maxListed)
	}
	if !strings.Contains(b.String(), "…and 5 more: upgrade.json lists them all.") {
		t.Errorf("no count of the rest:\n%s", b.String())
	}
}

func TestBuildRefusesDifferentScenarios(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile(filepath.Join("testdata", "to", "events.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	data = bytes.Replace(data, []byte(`"scenario":"training"`), []byte(`"scenario":"inference"`), 1)
	if err := os.WriteFile(filepath.Join(dir, "events.jsonl"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Build(filepath.Join("testdata", "from"), dir, nil, nil)
	if err == nil || !strings.Contains(err.Error(), "different scenarios") {
		t.Errorf("Build of two scenarios: %v", err)
	}
}
