package procs

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// stat is what kueue-sim reads of /proc/PID/stat.
type stat struct {
	PPID      int
	StartTime uint64 // clock ticks after boot; with the PID, names a process uniquely
	Zombie    bool
}

func readStat(pid int) (stat, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return stat{}, err
	}
	// The command name (field 2) is in parentheses and may hold spaces.
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return stat{}, fmt.Errorf("unexpected /proc/%d/stat", pid)
	}
	f := strings.Fields(string(data[i+1:]))
	// f[0] is field 3 (state), f[1] field 4 (ppid), f[19] field 22 (starttime).
	if len(f) < 20 {
		return stat{}, fmt.Errorf("short /proc/%d/stat", pid)
	}
	ppid, err := strconv.Atoi(f[1])
	if err != nil {
		return stat{}, err
	}
	start, err := strconv.ParseUint(f[19], 10, 64)
	if err != nil {
		return stat{}, err
	}
	return stat{PPID: ppid, StartTime: start, Zombie: f[0] == "Z" || f[0] == "X"}, nil
}

// alive tells whether the process pid started at start is still running.
func alive(pid int, start uint64) bool {
	st, err := readStat(pid)
	return err == nil && st.StartTime == start && !st.Zombie
}

// Children maps the executable names of this process's live children whose
// executable lies in dir to their PIDs.
func Children(dir string) (map[string]int, error) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil, fmt.Errorf("listing processes: %w", err)
	}
	self := os.Getpid()
	out := map[string]int{}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		st, err := readStat(pid)
		if err != nil || st.PPID != self || st.Zombie {
			continue
		}
		exe, err := os.Readlink(fmt.Sprintf("/proc/%d/exe", pid))
		if err != nil {
			continue
		}
		if rel, err := filepath.Rel(dir, exe); err == nil && !strings.HasPrefix(rel, "..") {
			out[filepath.Base(exe)] = pid
		}
	}
	return out, nil
}

// Alive tells whether pid names a running, non-zombie process.
func Alive(pid int) bool {
	st, err := readStat(pid)
	return err == nil && !st.Zombie
}

// CmdlinesContaining lists the PIDs of live processes whose command line
// contains s. Tests use it to prove nothing of a run is left behind.
func CmdlinesContaining(s string) []int {
	entries, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		data, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		if err != nil || !bytes.Contains(data, []byte(s)) || !Alive(pid) {
			continue
		}
		out = append(out, pid)
	}
	return out
}
