package bench

import (
	"os"
	"runtime"
	"testing"
)

func TestCPUTrackerCountsFromMark(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("CPU per process is read from /proc, which only Linux has; elsewhere bench prints no CPU figures")
	}
	c := newCPUTracker()
	c.mark(os.Getpid())
	x := 0
	for i := 0; i < 200_000_000; i++ { // ~0.1 s of CPU
		x += i % 7
	}
	_ = x
	c.sample(os.Getpid())
	by := c.byName()
	if by["sim"] <= 0 {
		t.Errorf("byName() = %v, want CPU for this process (named sim) since mark", by)
	}
}

func TestFormatCPU(t *testing.T) {
	got := formatCPU(map[string]float64{"etcd": 6.21, "kube-apiserver": 68.44, "sim": 20.3, "kube-scheduler": 0.01})
	if want := "kube-apiserver 68.4 s, sim 20.3 s, etcd 6.2 s"; got != want {
		t.Errorf("formatCPU() = %q, want %q", got, want)
	}
}
