package procs

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"syscall"
	"time"
)

// Process is a child process started by Start.
type Process struct {
	Name string
	cmd  *exec.Cmd
	done chan struct{}
	err  error // set before done is closed
}

// Start runs path with args, its output appended to logOut (may be nil).
// The child gets its own process group and is killed by the kernel if this
// process dies.
func Start(name, path string, args []string, logOut io.Writer) (*Process, error) {
	cmd := exec.Command(path, args...)
	cmd.Stdout, cmd.Stderr = logOut, logOut
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", name, err)
	}
	p := &Process{Name: name, cmd: cmd, done: make(chan struct{})}
	go func() {
		p.err = cmd.Wait()
		close(p.done)
	}()
	return p, nil
}

// PID is the child's process ID.
func (p *Process) PID() int { return p.cmd.Process.Pid }

// Exited is closed when the child has exited.
func (p *Process) Exited() <-chan struct{} { return p.done }

// Err is the child's exit error; valid once Exited is closed.
func (p *Process) Err() error { return p.err }

// Stop sends SIGTERM, waits up to grace, then sends SIGKILL and waits.
// An exit caused by the signal is not an error.
func (p *Process) Stop(grace time.Duration) error {
	select {
	case <-p.done:
		return nil
	default:
	}
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return fmt.Errorf("stopping %s: %w", p.Name, err)
	}
	select {
	case <-p.done:
		return nil
	case <-time.After(grace):
	}
	if err := p.cmd.Process.Kill(); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return fmt.Errorf("killing %s: %w", p.Name, err)
	}
	<-p.done
	return nil
}
