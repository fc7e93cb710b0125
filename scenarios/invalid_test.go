package scenarios

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the .golden files of testdata/invalid from the loader's output")

// TestInvalidCorpus loads every scenario of testdata/invalid, each with one
// mistake users make, and compares the error with the .golden file beside
// it. `go test ./scenarios/ -run InvalidCorpus -update` rewrites the golden
// files: read the diff before committing it.
func TestInvalidCorpus(t *testing.T) {
	files, err := filepath.Glob("testdata/invalid/*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 25 {
		t.Fatalf("found %d broken scenarios in testdata/invalid, want at least 25", len(files))
	}
	for _, file := range files {
		golden := strings.TrimSuffix(file, ".yaml") + ".golden"
		t.Run(filepath.Base(file), func(t *testing.T) {
			s, err := LoadFile(file)
			var verr *Error
			if !errors.As(err, &verr) {
				t.Fatalf("LoadFile(%s) = %v, %v; want an *Error", file, s, err)
			}
			checkProblems(t, verr)
			got := err.Error() + "\n"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to write it)", err)
			}
			if diff := cmp.Diff(string(want), got); diff != "" {
				t.Errorf("error of %s differs from %s (-want +got):\n%s", file, golden, diff)
			}
		})
	}
	goldens, _ := filepath.Glob("testdata/invalid/*.golden")
	for _, g := range goldens {
		if _, err := os.Stat(strings.TrimSuffix(g, ".golden") + ".yaml"); err != nil {
			t.Errorf("%s has no scenario beside it: remove it", g)
		}
	}
}

// checkProblems checks what every message owes the user: the field path
// and its line, unless the problem is with the file as a whole.
func checkProblems(t *testing.T, e *Error) {
	t.Helper()
	if len(e.Problems) == 0 {
		t.Fatal("an Error with no problems")
	}
	for _, p := range e.Problems {
		if p.Field != "" && p.Line == 0 {
			t.Errorf("problem %q at %s has no line", p.Msg, p.Field)
		}
		if strings.TrimSpace(p.Msg) == "" {
			t.Errorf("problem at %s has no message", p.Field)
		}
	}
}

// TestInvalidLines pins the line of a few problems, counted by hand.
func TestInvalidLines(t *testing.T) {
	for _, tc := range []struct {
		file  string
		field string
		line  int
	}{
		{"unknown-field-top.yaml", "workload", 26},
		{"unknown-field-quota.yaml", "queues.clusterQueues[0].resourceGroups[0].flavors[0].resources[nvidia.com/gpu].nominl", 21},
		{"duplicate-field.yaml", "workloads[0].count", 31},
		{"undeclared-flavor.yaml", "queues.clusterQueues[0].resourceGroups[0].flavors[0].name", 18},
		{"undeclared-clusterqueue.yaml", "teams[0].localQueues[0].clusterQueue", 25},
		{"cohort-cycle.yaml", "queues.cohorts[0].parent", 16},
		{"arrival-at-count-mismatch.yaml", "workloads[0].arrival.at", 31},
		{"no-requests.yaml", "workloads[0].requests", 27},
		{"not-yaml.yaml", "", 5},
		{"bad-indentation.yaml", "", 6},
		{"unclosed-quote.yaml", "", 4},
		{"missing-api-version.yaml", "apiVersion", 2},
		{"wrong-type-teams-mapping.yaml", "teams", 22},
		{"two-documents.yaml", "", 36},
		{"workload-index.yaml", "expectations[1].workload.index", 68},
		{"workload-bare-check.yaml", "expectations[0].workload.admittedBy", 69},
		{"pending-counts.yaml", "expectations[4].pendingCounts.at", 74},
		{"pending-counts-bare.yaml", "expectations[0].pendingCounts.active", 69},
		{"template-strict-decode.yaml", "workloads[1].template.spec.parallelism", 33},
		{"template-strict-decode.yaml", "workloads[1].template.spec.template.spec.containers[0].resources.request", 41},
		{"template-strict-decode.yaml", "spec.pytorchReplicaSpecs[Worker].replicas", 18},
		{"template-missing.yaml", "workloads[2].template", 33},
		{"changes-invalid.yaml", "changes[1]", 27},
		{"changes-invalid.yaml", "changes[0].apply[1]", 26},
		{"changes-invalid.yaml", "changes[2].delete[2].namespace", 32},
	} {
		t.Run(tc.file, func(t *testing.T) {
			_, err := LoadFile(filepath.Join("testdata/invalid", tc.file))
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("got %v, want an *Error", err)
			}
			for _, p := range e.Problems {
				if p.Field == tc.field {
					if p.Line != tc.line {
						t.Errorf("%s is on line %d, want %d", tc.field, p.Line, tc.line)
					}
					return
				}
			}
			t.Errorf("no problem at %q in %v", tc.field, e.Problems)
		})
	}
}

// TestLoadFileTooLarge checks that a file over MaxFileSize is refused
// before it is parsed.
func TestLoadFileTooLarge(t *testing.T) {
	path := filepath.Join(t.TempDir(), "huge.yaml")
	data := []byte("description: \"" + strings.Repeat("x", MaxFileSize) + "\"\n")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := LoadFile(path)
	want := path + " is not a valid scenario (1 problem):\n  " + path +
		": the file is over the 1048576-byte limit: split the scenario or generate workloads with arrival and count instead of listing them"
	if err == nil || err.Error() != want {
		t.Errorf("LoadFile = %v\nwant %s", err, want)
	}
	if _, err := Load("huge.yaml", "huge", data); !IsInvalid(err) {
		t.Errorf("Load = %v, want an *Error", err)
	}
}

func TestLoadFileMissing(t *testing.T) {
	_, err := LoadFile("testdata/no-such-file.yaml")
	if err == nil || IsInvalid(err) || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("LoadFile = %v, want a wrapped os.ErrNotExist that is not an *Error", err)
	}
}
