//go:build integration

package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kueue-sim/kueue-sim/sim/procs"
)

type upProcess struct {
	cmd    *exec.Cmd
	output strings.Builder
	ready  chan struct{}
	done   chan error
}

// startUp runs `sim up` with the run root and waits until it says the
// control plane is ready.
func startUp(t *testing.T, bin, runRoot string) *upProcess {
	t.Helper()
	p := &upProcess{ready: make(chan struct{}), done: make(chan error, 1)}
	p.cmd = exec.Command(bin, "up", "--write-kubeconfig", filepath.Join(runRoot, "kubeconfig"))
	p.cmd.Env = append(os.Environ(), "KUEUESIM_RUN_ROOT="+runRoot)
	stdout, err := p.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p.cmd.Stderr = p.cmd.Stdout
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string)
	go func() {
		s := bufio.NewScanner(stdout)
		for s.Scan() {
			lines <- s.Text()
		}
		close(lines)
	}()
	go func() {
		readyClosed := false
		for l := range lines {
			p.output.WriteString(l + "\n")
			if !readyClosed && strings.HasPrefix(l, "control plane ready") {
				close(p.ready)
				readyClosed = true
			}
		}
		p.done <- p.cmd.Wait()
	}()
	select {
	case <-p.ready:
	case err := <-p.done:
		t.Fatalf("sim up exited before it was ready: %v\n%s", err, p.output.String())
	case <-time.After(2 * time.Minute):
		_ = p.cmd.Process.Kill()
		t.Fatalf("sim up not ready after 2 minutes:\n%s", p.output.String())
	}
	return p
}

func (p *upProcess) wait(t *testing.T) error {
	t.Helper()
	select {
	case err := <-p.done:
		return err
	case <-time.After(time.Minute):
		_ = p.cmd.Process.Kill()
		t.Fatalf("sim up still running a minute after the signal:\n%s", p.output.String())
		return nil
	}
}

// leftovers lists the live processes whose command line names the run root
// (etcd's data folder, kube-apiserver's certificates, the kubeconfigs of
// kube-scheduler and kube-controller-manager all live there).
func leftovers(runRoot string) []int { return procs.CmdlinesContaining(runRoot) }

func eventuallyNoLeftovers(t *testing.T, runRoot string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for len(leftovers(runRoot)) > 0 && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
	}
	if pids := leftovers(runRoot); len(pids) > 0 {
		t.Errorf("processes of the run still alive: %v", cmdlines(pids))
	}
}

func cmdlines(pids []int) []string {
	var out []string
	for _, pid := range pids {
		b, _ := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "cmdline"))
		out = append(out, strings.ReplaceAll(string(b), "\x00", " "))
	}
	return out
}

func runFolders(t *testing.T, runRoot string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(runRoot, "run-*"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestUpStopsEverythingOnInterrupt(t *testing.T) {
	bin := buildSim(t)
	runRoot := t.TempDir()
	p := startUp(t, bin, runRoot)
	if len(leftovers(runRoot)) < 4 {
		t.Fatalf("expected etcd, kube-apiserver, kube-scheduler and kube-controller-manager running, found %v", cmdlines(leftovers(runRoot)))
	}
	if err := p.cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	if err := p.wait(t); err != nil {
		t.Fatalf("sim up exited with %v after Ctrl-C:\n%s", err, p.output.String())
	}
	eventuallyNoLeftovers(t, runRoot)
	if f := runFolders(t, runRoot); len(f) > 0 {
		t.Errorf("run folders left behind: %v", f)
	}
	if _, err := os.Stat(filepath.Join(runRoot, "kubeconfig")); err == nil {
		t.Errorf("the kubeconfig of a stopped control plane was left behind")
	}
}

func TestUpAfterKilledRunCleansUpItsLeftovers(t *testing.T) {
	bin := buildSim(t)
	runRoot := t.TempDir()
	killed := startUp(t, bin, runRoot)
	if err := killed.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = killed.wait(t)
	// SIGKILL gives sim no chance to stop its children: envtest's etcd and
	// kube-apiserver outlive it (kube-scheduler and kube-controller-manager
	// die with it through Pdeathsig).
	if len(leftovers(runRoot)) == 0 {
		t.Fatal("expected etcd and kube-apiserver of the killed run to survive it")
	}

	next := startUp(t, bin, runRoot)
	for _, want := range []string{"cleanup: killed leftover etcd", "cleanup: killed leftover kube-apiserver", "cleanup: removed leftover run folder"} {
		if !strings.Contains(next.output.String(), want) {
			t.Errorf("the new sim up did not say %q:\n%s", want, next.output.String())
		}
	}
	if f := runFolders(t, runRoot); len(f) != 1 {
		t.Errorf("want only the new run's folder, found %v", f)
	}
	if err := next.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := next.wait(t); err != nil {
		t.Fatalf("sim up exited with %v after SIGTERM:\n%s", err, next.output.String())
	}
	eventuallyNoLeftovers(t, runRoot)
	if f := runFolders(t, runRoot); len(f) > 0 {
		t.Errorf("run folders left behind: %v", f)
	}
}

func TestUpStopsEverythingWhenAChildCrashes(t *testing.T) {
	bin := buildSim(t)
	runRoot := t.TempDir()
	p := startUp(t, bin, runRoot)
	pids := leftovers(runRoot)
	var scheduler int
	for i, line := range cmdlines(pids) {
		if strings.Contains(line, "kube-scheduler") {
			scheduler = pids[i]
		}
	}
	if scheduler == 0 {
		t.Fatalf("no kube-scheduler among %v", cmdlines(pids))
	}
	if err := syscall.Kill(scheduler, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	err := p.wait(t)
	if err == nil {
		t.Fatalf("sim up exited 0 after kube-scheduler crashed:\n%s", p.output.String())
	}
	if !strings.Contains(p.output.String(), "kube-scheduler exited on its own") {
		t.Errorf("sim up did not say which part failed:\n%s", p.output.String())
	}
	eventuallyNoLeftovers(t, runRoot)
}
