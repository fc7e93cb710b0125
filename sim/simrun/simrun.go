package simrun

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"
)

// WaitDelay is how long a child may take to stop its control plane after
// it is told to stop, before it is killed.
const WaitDelay = time.Minute

// Command is sim with args, stopped as Ctrl-C would stop it when ctx ends:
// SIGTERM, so that it stops its control plane and removes its run folder;
// one still running WaitDelay later is killed.
func Command(ctx context.Context, sim string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, sim, args...)
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	cmd.WaitDelay = WaitDelay
	return cmd
}

// Result is how a child ended.
type Result struct {
	// ExitCode is the child's: for `sim run`, 0 when every expectation
	// held, 1 when one failed (its report written), 2 for invalid input.
	ExitCode int
	// Wall is how long it ran.
	Wall time.Duration
	// Log is the file holding its output.
	Log string
}

// Run runs sim with args, its standard output and error in the file log.
// A child that exits non-zero is a Result, not an error: err says that it
// could not start, or did not exit by itself.
func Run(ctx context.Context, sim, log string, args ...string) (Result, error) {
	res := Result{Log: log}
	fh, err := os.Create(log)
	if err != nil {
		return res, fmt.Errorf("creating %s: %w", log, err)
	}
	defer fh.Close()
	cmd := Command(ctx, sim, args...)
	cmd.Stdout, cmd.Stderr = fh, fh
	began := time.Now()
	err = cmd.Run()
	res.Wall = time.Since(began)
	var exit *exec.ExitError
	switch {
	case err == nil:
		return res, nil
	case ctx.Err() != nil:
		// Whatever it exited with, a child told to stop did not finish.
		res.ExitCode = -1
		return res, fmt.Errorf("%s stopped: %w (its output: %s)", sim, ctx.Err(), log)
	case errors.As(err, &exit) && exit.Exited():
		res.ExitCode = exit.ExitCode()
		return res, nil
	}
	res.ExitCode = -1
	return res, fmt.Errorf("running %s: %w (its output: %s)", sim, err, log)
}
