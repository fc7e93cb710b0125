package bench

import (
	"runtime"
	"testing"
	"time"
)

func TestFormatRSS(t *testing.T) {
	got := formatRSS(map[string]int64{"etcd": 300 << 20, "kube-apiserver": 1100 << 20, "sim": 700<<20 + 5, "kube-scheduler": 1 << 10})
	if want := "kube-apiserver 1100, sim 700, etcd 300"; got != want {
		t.Errorf("formatRSS() = %q, want %q", got, want)
	}
}

// The sampler says what each process held at the tree's peak: this
// process counts as "sim", as in a measured run.
func TestPeakRSSByProcess(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	s := sampleRSS(time.Millisecond)
	time.Sleep(5 * time.Millisecond)
	peak := s.Stop()
	by := s.PeakBy()
	if peak <= 0 || by["sim"] <= 0 || by["sim"] > peak {
		t.Errorf("peak %d, by process %v: want this process's share under \"sim\"", peak, by)
	}
}
