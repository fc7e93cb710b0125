package bench

import (
	"bytes"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// clockTicks is the kernel's USER_HZ: /proc/PID/stat counts CPU time in
// these. Linux has used 100 on every architecture Go builds for.
const clockTicks = 100

// cpuTracker keeps the CPU time last seen of every process of a tree, so
// that processes which exit before the end (Kueue's harness tears its
// control plane down itself) still count.
type cpuTracker struct {
	mu    sync.Mutex
	names map[int]string
	last  map[int]time.Duration
	base  map[int]time.Duration // at mark
}

func newCPUTracker() *cpuTracker {
	return &cpuTracker{names: map[int]string{}, last: map[int]time.Duration{}, base: map[int]time.Duration{}}
}

// sample reads the CPU time of root and its descendants.
func (c *cpuTracker) sample(root int) { c.samplePIDs(descendants(root)) }

// samplePIDs reads the CPU time of these processes.
func (c *cpuTracker) samplePIDs(pids []int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, pid := range pids {
		name, cpu, ok := procCPU(pid)
		if !ok {
			continue
		}
		if pid == os.Getpid() {
			name = "sim"
		}
		c.names[pid], c.last[pid] = name, cpu
	}
}

// name is the name sample last read for pid ("?" if none).
func (c *cpuTracker) name(pid int) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if n, ok := c.names[pid]; ok {
		return n
	}
	return "?"
}

// mark makes what was seen so far the zero: byName then counts from here.
func (c *cpuTracker) mark(root int) {
	c.sample(root)
	c.mu.Lock()
	defer c.mu.Unlock()
	for pid, cpu := range c.last {
		c.base[pid] = cpu
	}
}

// byName sums CPU seconds since mark by process name.
func (c *cpuTracker) byName() map[string]float64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := map[string]float64{}
	for pid, cpu := range c.last {
		if d := cpu - c.base[pid]; d > 0 {
			out[c.names[pid]] += d.Seconds()
		}
	}
	return out
}

// procCPU reads a process's name and user+system CPU time from
// /proc/PID/stat.
func procCPU(pid int) (name string, cpu time.Duration, ok bool) {
	name, f, ok := procStat(pid)
	if !ok || len(f) < 13 {
		return "", 0, false
	}
	// f[11], f[12]: utime and stime, the stat file's 14th and 15th fields.
	utime, err1 := strconv.ParseInt(string(f[11]), 10, 64)
	stime, err2 := strconv.ParseInt(string(f[12]), 10, 64)
	if err1 != nil || err2 != nil {
		return "", 0, false
	}
	return name, time.Duration(utime+stime) * time.Second / clockTicks, true
}

// procStat reads /proc/PID/stat: the process's name and the fields after
// it, from its state on ("pid (comm) state ppid ...": comm may hold spaces
// and parentheses).
func procStat(pid int) (name string, fields [][]byte, ok bool) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return "", nil, false
	}
	open, end := bytes.IndexByte(data, '('), bytes.LastIndexByte(data, ')')
	if open < 0 || end < open {
		return "", nil, false
	}
	return string(data[open+1 : end]), bytes.Fields(data[end+1:]), true
}

// formatCPU prints CPU seconds by process, most first: "kube-apiserver
// 68.4 s, sim 20.3 s, etcd 6.2 s".
func formatCPU(by map[string]float64) string {
	names := make([]string, 0, len(by))
	for n, s := range by {
		if s >= 0.05 {
			names = append(names, n)
		}
	}
	sort.Slice(names, func(i, j int) bool { return by[names[i]] > by[names[j]] })
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = n + " " + strconv.FormatFloat(by[n], 'f', 1, 64) + " s"
	}
	return strings.Join(parts, ", ")
}
