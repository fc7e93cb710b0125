package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/kueue-sim/kueue-sim/sim/engine"
)

// progress shows a run's progress: a bar on a terminal, a log line every
// few seconds otherwise.
type progress struct {
	mu      sync.Mutex // update runs in the engine, interrupt wherever a message comes from
	w       io.Writer
	mode    string
	bar     *progressbar.ProgressBar
	lastLog time.Time
}

func newProgress(w io.Writer, mode string) *progress {
	if mode == "auto" {
		mode = "log"
		if f, ok := w.(*os.File); ok && isTerminal(f) {
			mode = "bar"
		}
	}
	return &progress{w: w, mode: mode}
}

func (p *progress) update(pr engine.Progress) {
	p.mu.Lock()
	defer p.mu.Unlock()
	desc := fmt.Sprintf("sim %s: %d admitted, %d pending, %d finished", pr.Sim, pr.Admitted, pr.Pending, pr.Finished)
	switch p.mode {
	case "bar":
		if p.bar == nil {
			p.bar = progressbar.NewOptions64(int64(max(pr.End.Seconds(), 1)),
				progressbar.OptionSetWriter(p.w), progressbar.OptionShowCount(), progressbar.OptionSetPredictTime(true),
				progressbar.OptionSetWidth(30), progressbar.OptionThrottle(100*time.Millisecond))
		}
		p.bar.Describe(desc)
		_ = p.bar.Set64(int64(pr.Sim.Seconds()))
	case "log":
		if time.Since(p.lastLog) >= 5*time.Second {
			p.lastLog = time.Now()
			fmt.Fprintf(p.w, "progress: %s of %s simulated; %d arrived, %d admitted, %d pending, %d finished, %d refused, %d preempted\n",
				pr.Sim, pr.End, pr.Arrived, pr.Admitted, pr.Pending, pr.Finished, pr.Refused, pr.Preempted)
		}
	}
}

// done ends the bar, once: a line written after it starts a line of its
// own instead of running on after the bar.
func (p *progress) done() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar != nil {
		_ = p.bar.Finish()
		fmt.Fprintln(p.w)
		p.bar = nil
	}
}

// above is w for the run's status lines: one written once the replay has
// ended (a run's clean-up on an existing cluster) ends the bar first.
func (p *progress) above(w io.Writer) io.Writer {
	return writerFunc(func(b []byte) (int, error) {
		p.done()
		return w.Write(b)
	})
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(b []byte) (int, error) { return f(b) }

func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
