package bench

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// rssSampler follows the resident memory of this process and all its
// descendants, keeping the peak of their sum (and what each process held
// then), and their CPU time.
type rssSampler struct {
	mu     sync.Mutex
	peak   int64
	peakBy map[string]int64 // by process name, at the peak
	// cpu follows the same processes' CPU time.
	cpu  *cpuTracker
	stop context.CancelFunc
	done chan struct{}
}

// sampleRSS starts sampling every interval until Stop.
func sampleRSS(interval time.Duration) *rssSampler {
	ctx, cancel := context.WithCancel(context.Background())
	s := &rssSampler{cpu: newCPUTracker(), stop: cancel, done: make(chan struct{})}
	go func() {
		defer close(s.done)
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			s.sample()
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	}()
	return s
}

// Stop ends sampling and returns the peak in bytes.
func (s *rssSampler) Stop() int64 {
	s.stop()
	<-s.done
	s.sample()
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.peak
}

func (s *rssSampler) sample() {
	pids := descendants(os.Getpid())
	s.cpu.samplePIDs(pids)
	var total int64
	by := map[string]int64{}
	for _, p := range pids {
		r := rss(p)
		total += r
		by[s.cpu.name(p)] += r
	}
	s.mu.Lock()
	if total > s.peak {
		s.peak, s.peakBy = total, by
	}
	s.mu.Unlock()
}

// PeakBy is what each process (by name) held at the tree's peak.
func (s *rssSampler) PeakBy() map[string]int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.peakBy
}

// TreeRSS is the resident memory, in bytes, of pid and its descendants
// (Linux /proc; 0 elsewhere).
func TreeRSS(pid int) int64 {
	var total int64
	for _, p := range descendants(pid) {
		total += rss(p)
	}
	return total
}

// descendants lists pid and its descendants, from /proc/PID/task/*/children
// where the kernel has it, else from every process's parent.
func descendants(pid int) []int {
	if _, err := os.Stat("/proc/self/task"); err != nil {
		return nil
	}
	if files, _ := filepath.Glob("/proc/" + strconv.Itoa(pid) + "/task/*/children"); len(files) > 0 {
		out := []int{pid}
		for i := 0; i < len(out); i++ {
			files, _ := filepath.Glob("/proc/" + strconv.Itoa(out[i]) + "/task/*/children")
			for _, f := range files {
				data, _ := os.ReadFile(f)
				for _, c := range bytes.Fields(data) {
					if n, err := strconv.Atoi(string(c)); err == nil {
						out = append(out, n)
					}
				}
			}
		}
		return out
	}
	return scanDescendants(pid)
}

func scanDescendants(pid int) []int {
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	children := map[int][]int{}
	for _, f := range stats {
		me, err1 := strconv.Atoi(filepath.Base(filepath.Dir(f)))
		_, fields, ok := procStat(me)
		if err1 != nil || !ok || len(fields) < 2 {
			continue
		}
		if parent, err := strconv.Atoi(string(fields[1])); err == nil {
			children[parent] = append(children[parent], me)
		}
	}
	out := []int{pid}
	for i := 0; i < len(out); i++ {
		out = append(out, children[out[i]]...)
	}
	return out
}

// rss reads a process's resident pages from /proc/PID/statm.
func rss(pid int) int64 {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/statm")
	if err != nil {
		return 0
	}
	f := bytes.Fields(data)
	if len(f) < 2 {
		return 0
	}
	pages, err := strconv.ParseInt(string(f[1]), 10, 64)
	if err != nil {
		return 0
	}
	return pages * int64(os.Getpagesize())
}

// formatRSS lists what each process held, largest first, in MiB.
func formatRSS(by map[string]int64) string {
	names := make([]string, 0, len(by))
	for n, b := range by {
		if b >= 1<<20 {
			names = append(names, n)
		}
	}
	sort.Slice(names, func(i, j int) bool { return by[names[i]] > by[names[j]] })
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = n + " " + strconv.FormatInt(by[n]>>20, 10)
	}
	return strings.Join(parts, ", ")
}
