//go:build integration

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kueue-sim/kueue-sim/forecast"
	"github.com/kueue-sim/kueue-sim/sim/record"
)

// sim forecast says what a full replay with the job in it decides: the job
// of testdata/forecast waits for the running job's end (2h30m1s, worked
// out in scenario.yaml), to the simulated second the replay of full.yaml
// (the same scenario with the job as a stream) admits it; at two GPUs per
// pod it starts at once.
func TestForecastMatchesFullReplay(t *testing.T) {
	out := t.TempDir()
	code, log := runSim(t, "forecast", "testdata/forecast/job.yaml", "--scenario", "testdata/forecast/scenario.yaml",
		"--at", "30m", "--try", "nvidia.com/gpu=2", "-o", "json", "--report", out)
	if code != 0 {
		t.Fatalf("sim forecast exited %d:\n%s", code, log)
	}
	var f forecast.Forecast
	if err := json.Unmarshal([]byte(log[strings.Index(log, "{"):]), &f); err != nil {
		t.Fatalf("reading the forecast: %v\n%s", err, log)
	}
	if len(f.Alternatives) != 2 || f.Random {
		t.Fatalf("forecast %+v, want two alternatives of one run each", f)
	}
	written, smaller := f.Alternatives[0].Jobs[0].Summary, f.Alternatives[1].Jobs[0].Summary
	if written.P50 == nil || *written.P50 != 9001 || written.AtOnce != 0 || written.ClusterQueue != "research" {
		t.Errorf("as written: %+v, want a wait of 2h30m1s in ClusterQueue research", written)
	}
	if len(written.LetInBy) != 1 || written.LetInBy[0].Workload != "research/train-0" {
		t.Errorf("as written, let in by %+v, want research/train-0", written.LetInBy)
	}
	if smaller.AtOnce != 1 || smaller.P50 == nil || *smaller.P50 != 0 {
		t.Errorf("nvidia.com/gpu=2: %+v, want admitted at once", smaller)
	}
	if _, err := os.Stat(filepath.Join(out, "forecast.json")); err != nil {
		t.Error(err)
	}

	full := t.TempDir()
	if code, log := runSim(t, "run", "testdata/forecast/full.yaml", "--report", full, "--progress", "none"); code != 0 {
		t.Fatalf("sim run exited %d:\n%s", code, log)
	}
	workload := f.Jobs[0].Workload
	admitted := admittedAt(t, filepath.Join(full, "decisions.jsonl"), workload)
	if got := time.Duration(*written.P50 * float64(time.Second)); admitted-30*time.Minute != got {
		t.Errorf("the full replay admits %s at %s, %s after its arrival; the forecast says %s", workload, admitted, admitted-30*time.Minute, got)
	}
}

// admittedAt is when the decision log at path first admits workload.
func admittedAt(t *testing.T, path, workload string) time.Duration {
	t.Helper()
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	evs, err := record.Read(fh)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range evs {
		if e.Type == record.TypeAdmitted && e.Workload == workload {
			return e.T.D()
		}
	}
	t.Fatalf("%s never admits %s", path, workload)
	return 0
}

// Bad input exits 2 with the file, line and field of the problem.
func TestForecastRefusesBadInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	deployment := write("deploy.yaml", "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n")
	fpga := write("fpga.yaml", strings.ReplaceAll(readFile(t, "testdata/forecast/job.yaml"), `nvidia.com/gpu: "4"`, `example.com/fpga: "1"`))
	noQueue := write("noqueue.yaml", strings.Replace(readFile(t, "testdata/forecast/job.yaml"), "queue-name: gpu", "queue-name: cpu", 1))
	for _, c := range []struct {
		name string
		args []string
		want []string
	}{
		{"unknown kind", []string{deployment}, []string{"deploy.yaml:", "Deployment"}},
		{"no such queue", []string{noQueue}, []string{"noqueue.yaml:7", "metadata.labels[kueue.x-k8s.io/queue-name]", "cpu", "gpu"}},
		{"resource no flavor offers", []string{fpga}, []string{"fpga.yaml:18", "requests[example.com/fpga]", "ClusterQueue research has no quota"}},
		{"no horizon", []string{"testdata/forecast/job.yaml", "--horizon", "0s"}, []string{"--horizon"}},
		{"a scenario and a cluster", []string{"testdata/forecast/job.yaml", "--kubeconfig", "kubeconfig.yaml"}, []string{"--scenario and --kubeconfig"}},
		{"try of a resource nobody asks for", []string{"testdata/forecast/job.yaml", "--try", "example.com/fpga=1"}, []string{"example.com/fpga"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, log := runSim(t, append([]string{"forecast", "--scenario", "testdata/forecast/scenario.yaml"}, c.args...)...)
			if code != 2 {
				t.Fatalf("exit %d, want 2:\n%s", code, log)
			}
			for _, w := range c.want {
				if !strings.Contains(log, w) {
					t.Errorf("message lacks %q:\n%s", w, log)
				}
			}
		})
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
