package procs

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// startSleeper starts a child that would outlive its owner, as envtest's
// etcd and kube-apiserver do (own process group, no Pdeathsig).
func startSleeper(t *testing.T) *exec.Cmd {
	t.Helper()
	cmd := exec.Command("sleep", "300")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { _ = cmd.Wait() }()
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	return cmd
}

// deadOwner returns the PID and start time of a process that has exited.
func deadOwner(t *testing.T) entry {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	st, err := readStat(cmd.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	return entry{PID: cmd.Process.Pid, StartTime: st.StartTime}
}

func writeRun(t *testing.T, root, name string, rec record) string {
	t.Helper()
	dir := filepath.Join(root, name)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(rec)
	if err := os.WriteFile(filepath.Join(dir, recordFile), data, 0o600); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestCleanupStaleEndsChildrenOfDeadRunsOnly(t *testing.T) {
	root := t.TempDir()
	orphan := startSleeper(t)
	kept := startSleeper(t)
	ost, _ := readStat(orphan.Process.Pid)

	deadDir := writeRun(t, root, "run-1-a", record{
		Owner:    deadOwner(t),
		Children: []entry{{PID: orphan.Process.Pid, StartTime: ost.StartTime, Name: "etcd"}},
	})
	live, err := NewRunDir(root) // owned by this (live) test process
	if err != nil {
		t.Fatal(err)
	}
	if err := live.Record("kube-apiserver", kept.Process.Pid); err != nil {
		t.Fatal(err)
	}

	did, err := CleanupStale(root)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(did, "\n"), "killed leftover etcd") {
		t.Errorf("CleanupStale reported %q, want it to name the killed etcd", did)
	}
	deadline := time.Now().Add(5 * time.Second)
	for Alive(orphan.Process.Pid) && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if Alive(orphan.Process.Pid) {
		t.Error("the dead run's child is still alive")
	}
	if _, err := os.Stat(deadDir); !os.IsNotExist(err) {
		t.Errorf("the dead run's folder is still there (%v)", err)
	}
	if !Alive(kept.Process.Pid) {
		t.Error("CleanupStale killed a child of a live run")
	}
	if _, err := os.Stat(live.Path); err != nil {
		t.Errorf("CleanupStale removed a live run's folder: %v", err)
	}
}

func TestCleanupStaleSparesAReusedPID(t *testing.T) {
	root := t.TempDir()
	other := startSleeper(t)
	// The record names other's PID with another start time: the PID was
	// reused by an unrelated process, which must not be killed.
	writeRun(t, root, "run-2-b", record{
		Owner:    deadOwner(t),
		Children: []entry{{PID: other.Process.Pid, StartTime: 1, Name: "etcd"}},
	})
	if _, err := CleanupStale(root); err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond)
	if !Alive(other.Process.Pid) {
		t.Error("CleanupStale killed an unrelated process that reused a recorded PID")
	}
}

func TestProcessStopEscalatesToKill(t *testing.T) {
	// A child that ignores SIGTERM is killed after the grace period.
	p, err := Start("stubborn", "sh", []string{"-c", "trap '' TERM; while :; do sleep 0.1; done"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond) // let the shell install its trap
	if err := p.Stop(200 * time.Millisecond); err != nil {
		t.Fatal(err)
	}
	select {
	case <-p.Exited():
	default:
		t.Fatal("Stop returned before the process exited")
	}
}
