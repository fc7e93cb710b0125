package tools

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"
)

// Command is one go invocation of a build.
type Command struct {
	Dir  string   // working folder
	Env  []string // added to the environment (KEY=value)
	Args []string // Args[0] is the program
}

func (c Command) String() string {
	s := strings.Join(c.Args, " ")
	if len(c.Env) > 0 {
		s = strings.Join(c.Env, " ") + " " + s
	}
	return s
}

// Runner runs the commands of a build, writing their output to out.
type Runner interface {
	Run(ctx context.Context, c Command, out io.Writer) error
}

// RunnerFunc adapts a function to Runner.
type RunnerFunc func(ctx context.Context, c Command, out io.Writer) error

// Run calls f.
func (f RunnerFunc) Run(ctx context.Context, c Command, out io.Writer) error { return f(ctx, c, out) }

// execRunner runs commands as child processes; a cancelled ctx interrupts
// them (go then stops its compilers) and kills them 10 s later.
type execRunner struct{}

func (execRunner) Run(ctx context.Context, c Command, out io.Writer) error {
	cmd := exec.CommandContext(ctx, c.Args[0], c.Args[1:]...)
	cmd.Dir = c.Dir
	cmd.Env = append(os.Environ(), c.Env...)
	cmd.Stdout, cmd.Stderr = out, out
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 10 * time.Second
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("running %s: interrupted: %w", c, ctx.Err())
		}
		return fmt.Errorf("running %s: %w", c, err)
	}
	return nil
}
