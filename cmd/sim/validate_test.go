package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// validateCmd runs `sim validate args...` in process and returns its exit
// code and output.
func validateCmd(t *testing.T, stdin string, args ...string) (int, string) {
	t.Helper()
	root := newRootCmd()
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&out)
	root.SetIn(strings.NewReader(stdin))
	root.SetArgs(append([]string{"validate"}, args...))
	err := root.Execute()
	code := 0
	if err != nil {
		code = exitCode(err)
		out.WriteString("sim: " + err.Error() + "\n")
	}
	return code, out.String()
}

func TestValidate(t *testing.T) {
	dir := t.TempDir()
	broken := filepath.Join(dir, "broken.yaml")
	if err := os.WriteFile(broken, []byte("apiVersion: kueue-sim/v1alpha1\nkind: Scenario\nteams: [{name: Research}]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	list := filepath.Join(dir, "list.yaml")
	if err := os.WriteFile(list, []byte("- apiVersion: kueue-sim/v1alpha1\n  kind: Scenario\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	quickstart := filepath.Join("..", "..", "scenarios", "quickstart.yaml")
	imported := filepath.Join("testdata", "imported-incomplete.yaml")
	for _, tc := range []struct {
		name     string
		args     []string
		stdin    string
		wantCode int
		want     []string
	}{{
		name:     "a valid scenario",
		args:     []string{quickstart},
		wantCode: 0,
		want:     []string{quickstart + ": valid (6 workloads in 1 stream, 1 team, 1 ClusterQueue, 3 nodes, 4 expectations)\n"},
	}, {
		name:     "an import's scenario: valid, with its marks noted",
		args:     []string{imported},
		wantCode: 0,
		want: []string{
			imported + ": valid (1 workload in 1 stream, 1 team, 1 ClusterQueue, 1 node, 0 expectations)\n" +
				"  note: incomplete import: the scenario lacks what the import could not read (forbidden: list nodes: nodes is forbidden)\n" +
				"  note: inferred by sim import: 1 node pool (nodes could not be listed) sized to the peak concurrent demand Kueue admitted on it\n",
		},
	}, {
		name:     "an invalid scenario: every problem with file, line, field and fix",
		args:     []string{broken},
		wantCode: 2,
		want: []string{
			broken + " is not a valid scenario (2 problems):\n",
			"  " + broken + `:1: cluster.nodePools: Required value: give at least one node pool`,
			"  " + broken + `:3: teams[0].name: Invalid value: "Research": must be lowercase letters`,
			"sim: 1 of 1 scenario files are invalid\n",
		},
	}, {
		name:     "valid and invalid together: both reported, exit 2",
		args:     []string{quickstart, broken},
		wantCode: 2,
		want:     []string{quickstart + ": valid", broken + " is not a valid scenario", "sim: 1 of 2 scenario files are invalid"},
	}, {
		name:     "a list at the top level: its problem line ends before sim's own",
		args:     []string{list},
		wantCode: 2,
		want:     []string{list + ": the file holds a list, not a scenario", "(see scenarios/quickstart.yaml)\nsim: 1 of 1 scenario files are invalid\n"},
	}, {
		name:     "a missing file",
		args:     []string{filepath.Join(dir, "missing.yaml")},
		wantCode: 2,
		want:     []string{"missing.yaml: reading scenario: open ", "no such file or directory"},
	}, {
		name:     "standard input",
		args:     []string{"-"},
		stdin:    "kind: Scenario\n",
		wantCode: 2,
		want:     []string{"<stdin>:1: apiVersion: Required value: start the file with apiVersion: kueue-sim/v1alpha1"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			code, out := validateCmd(t, tc.stdin, tc.args...)
			if code != tc.wantCode {
				t.Errorf("exit code %d, want %d; output:\n%s", code, tc.wantCode, out)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
		})
	}
}

func TestValidateNeedsAFile(t *testing.T) {
	code, out := validateCmd(t, "")
	if code == 0 || !strings.Contains(out, "requires at least 1 arg") {
		t.Errorf("sim validate without files: exit %d, output:\n%s", code, out)
	}
}
