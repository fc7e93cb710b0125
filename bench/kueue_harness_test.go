//go:build integration

package bench

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kueue-sim/kueue-sim/sim/assets"
)

// BenchmarkKueueHarness runs Kueue's own scheduler-performance runner with
// minimalkueue (built from the module cache into a temporary folder, never
// kept) on the baseline generator config scaled to each size, for the
// headline ratio against BenchmarkBaseline. Its wall time is the runner's,
// from start to the last workload finished; RSS is its process tree's.
func BenchmarkKueueHarness(b *testing.B) {
	bins, err := assets.FindBinaries()
	if err != nil {
		b.Skip(err)
	}
	kueueDir, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "sigs.k8s.io/kueue").Output()
	if err != nil {
		b.Fatalf("finding Kueue in the module cache: %v", err)
	}
	kq := strings.TrimSpace(string(kueueDir))
	tmp := b.TempDir()
	for name, pkg := range map[string]string{"runner": "runner", "minimalkueue": "minimalkueue"} {
		out, err := exec.Command("go", "build", "-o", filepath.Join(tmp, name), "sigs.k8s.io/kueue/test/performance/scheduler/"+pkg).CombinedOutput()
		if err != nil {
			b.Fatalf("building Kueue's %s: %v\n%s", name, err, out)
		}
	}
	generator, err := os.ReadFile(filepath.Join(kq, "test/performance/scheduler/configs/baseline/generator.yaml"))
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range sizes() {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			cfg := filepath.Join(tmp, fmt.Sprintf("generator-%d.yaml", n))
			if err := os.WriteFile(cfg, scaleGenerator(generator, float64(n)/baselineWorkloads), 0o644); err != nil {
				b.Fatal(err)
			}
			for i := 0; i < b.N; i++ {
				out := filepath.Join(tmp, fmt.Sprintf("out-%d-%d", n, i))
				cmd := exec.CommandContext(context.Background(), filepath.Join(tmp, "runner"), "--o", out,
					"--crds", filepath.Join(kq, "config/components/crd/bases"), "--generatorConfig", cfg,
					"--minimalKueue", filepath.Join(tmp, "minimalkueue"), "--timeout", "60m",
					// Kueue's metrics, scraped for its scheduling cycles
					// (harnessCycles); one scrape every 5 s costs little.
					"--metricsScrapeInterval", "5s")
				if err := os.MkdirAll(out, 0o755); err != nil {
					b.Fatal(err)
				}
				cmd.Env = append(os.Environ(), "KUBEBUILDER_ASSETS="+bins.Dir)
				// Kueue's test utilities look for the project's Makefile from
				// the working directory up: run in the module's folder.
				cmd.Dir = kq
				var log bytes.Buffer
				cmd.Stdout, cmd.Stderr = &log, &log
				began := time.Now()
				if err := cmd.Start(); err != nil {
					b.Fatal(err)
				}
				done := make(chan error, 1)
				go func() { done <- cmd.Wait() }()
				var peak int64
				cpu := newCPUTracker()
				tick := time.NewTicker(250 * time.Millisecond)
			wait:
				for {
					select {
					case err := <-done:
						if err != nil {
							tail := log.Bytes()
							tail = tail[max(0, len(tail)-4000):]
							b.Fatalf("Kueue's runner: %v\n%s", err, tail)
						}
						break wait
					case <-tick.C:
						peak = max(peak, TreeRSS(cmd.Process.Pid))
						cpu.sample(cmd.Process.Pid)
					}
				}
				tick.Stop()
				wall := time.Since(began)
				// CPU covers the whole run, the harness's control-plane
				// start included (it starts its own), as last seen 250 ms
				// apart.
				b.Logf("Kueue's harness: %d workloads in %.1fs wall (%.1f wl/s), peak RSS %.0f MiB, CPU (%s)%s", n, wall.Seconds(), float64(n)/wall.Seconds(), float64(peak)/(1<<20), formatCPU(cpu.byName()), gcNote())
				cycles, err := harnessCycles(filepath.Join(out, "metricsDump.tgz"))
				if err != nil {
					b.Logf("Kueue's harness: no scheduling cycles: %v", err)
				} else {
					f := Figures{Workloads: n, KueueCycles: cycles}
					b.Logf("Kueue's harness: %.2f scheduling cycles per workload %v (as of its last metrics scrape)", f.CyclesPerWorkload(), cycles)
					b.ReportMetric(f.CyclesPerWorkload(), "kueue-cycles/workload")
				}
				if l, err := harnessLoad(filepath.Join(out, "wlStates.csv")); err != nil {
					b.Logf("Kueue's harness: no admission waits: %v", err)
				} else {
					b.Logf("Kueue's harness: %v (wall time from each workload's creation)", l)
				}
				b.ReportMetric(wall.Seconds(), "wall-s")
				b.ReportMetric(float64(n)/wall.Seconds(), "workloads/s")
				b.ReportMetric(float64(peak)/(1<<20), "peak-RSS-MiB")
			}
		})
	}
}
