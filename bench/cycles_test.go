package bench

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestCyclesSince(t *testing.T) {
	for name, tc := range map[string]struct {
		before, after, want map[string]float64
	}{
		"nothing before": {nil, map[string]float64{"success": 3}, map[string]float64{"success": 3}},
		"differences":    {map[string]float64{"success": 2, "inadmissible": 5}, map[string]float64{"success": 4, "inadmissible": 5}, map[string]float64{"success": 2}},
		"none":           {map[string]float64{"success": 2}, map[string]float64{"success": 2}, map[string]float64{}},
	} {
		t.Run(name, func(t *testing.T) {
			if got := cyclesSince(tc.before, tc.after); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("cyclesSince(%v, %v) = %v, want %v", tc.before, tc.after, got, tc.want)
			}
		})
	}
}

func TestCyclesPerWorkload(t *testing.T) {
	f := Figures{Workloads: 4, KueueCycles: map[string]float64{"success": 2, "inadmissible": 6}}
	if got := f.CyclesPerWorkload(); got != 2 {
		t.Errorf("CyclesPerWorkload() = %v, want 2", got)
	}
}

func TestHarnessCycles(t *testing.T) {
	scrape := func(success, inadmissible int) string {
		return fmt.Sprintf(`# HELP kueue_admission_attempts_total The total number of attempts to admit workloads.
# TYPE kueue_admission_attempts_total counter
kueue_admission_attempts_total{replica_role="leader",result="inadmissible"} %d
kueue_admission_attempts_total{replica_role="leader",result="success"} %d
# TYPE other_total counter
other_total 7
`, inadmissible, success)
	}
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for i, s := range []string{scrape(1, 2), scrape(10, 30)} {
		if err := tw.WriteHeader(&tar.Header{Name: fmt.Sprintf("%d.prometheus", i), Size: int64(len(s)), Mode: 0o666}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write([]byte(s)); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := gz.Close(); err != nil {
		t.Fatal(err)
	}
	dump := filepath.Join(t.TempDir(), "metricsDump.tgz")
	if err := os.WriteFile(dump, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := harnessCycles(dump)
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]float64{"success": 10, "inadmissible": 30}; !reflect.DeepEqual(got, want) {
		t.Errorf("harnessCycles() = %v, want %v (the last scrape)", got, want)
	}
	if _, err := harnessCycles(filepath.Join(t.TempDir(), "missing.tgz")); err == nil {
		t.Error("harnessCycles(missing file) returned no error")
	}
}
