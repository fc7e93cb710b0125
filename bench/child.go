package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	_ "net/http/pprof" // served on envPprof's address only
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/go-logr/logr"
	ctrl "sigs.k8s.io/controller-runtime"

	"github.com/kueue-sim/kueue-sim/scenarios"
)

// Each measured run has its own process, because a process runs at most
// one Kueue: the benchmark re-executes its own binary with these variables
// set, and the child runs one scenario and prints its Figures as JSON.
const (
	envChild     = "KUEUESIM_BENCH_CHILD"     // scenario file
	envWorkloads = "KUEUESIM_BENCH_WORKLOADS" // scale to this many workloads (0: as is)
	envPrune     = "KUEUESIM_BENCH_PRUNE"     // 1: delete finished workloads (sim run --prune-finished)
	envEvents    = "KUEUESIM_BENCH_EVENTS"    // write the event log here
	envCPU       = "KUEUESIM_BENCH_CPUPROFILE"
	// envPprof, when set (host:port), serves the child's net/http/pprof
	// there for the run: goroutine dumps and block profiles show where a
	// run waits, which a CPU profile does not.
	envPprof = "KUEUESIM_BENCH_PPROF_ADDR"
	// envKueueLog, when set (file[:verbosity], verbosity 2 if left out),
	// writes Kueue's log there in simulated time (kueuelog.go).
	envKueueLog = "KUEUESIM_BENCH_KUEUE_LOG"
	// envAPIProfileAfter (a duration) starts kube-apiserver's CPU profile
	// that far into the replay, and envAPIProfileFor sets its length.
	envAPIProfileAfter = "KUEUESIM_BENCH_APISERVER_PROFILE_AFTER"
	envAPIProfileFor   = "KUEUESIM_BENCH_APISERVER_PROFILE_FOR"
	// envAPIHeap, when set, receives kube-apiserver's heap profile at the
	// end of the replay.
	envAPIHeap = "KUEUESIM_BENCH_APISERVER_HEAP"
)

// Spec is one measured run.
type Spec struct {
	Scenario  string
	Workloads int
	Prune     bool
	Events    string
	// CPUProfile writes the child's CPU profile (kueue-sim and Kueue).
	CPUProfile string
}

// Spawn runs spec in a child process and measures it, including the peak
// RSS of the child's whole process tree.
func Spawn(ctx context.Context, spec Spec) (Figures, error) {
	exe, err := os.Executable()
	if err != nil {
		return Figures{}, fmt.Errorf("finding the benchmark binary: %w", err)
	}
	cmd := exec.CommandContext(ctx, exe, "-test.run=^$")
	// The child stops its control plane on SIGTERM: when ctx ends, and
	// when this process dies (a benchmark run interrupted or timed out).
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	cmd.WaitDelay = time.Minute
	cmd.Env = append(os.Environ(), envChild+"="+spec.Scenario, envWorkloads+"="+strconv.Itoa(spec.Workloads),
		envPrune+"="+prune(spec.Prune), envEvents+"="+spec.Events, envCPU+"="+spec.CPUProfile)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Start(); err != nil {
		return Figures{}, fmt.Errorf("starting the measured run: %w", err)
	}
	peak := int64(0)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case err := <-done:
			if err != nil {
				return Figures{}, fmt.Errorf("measured run of %s: %w\n%s", spec.Scenario, err, errOut.String())
			}
			var fig Figures
			if err := json.Unmarshal(lastLine(out.Bytes()), &fig); err != nil {
				return Figures{}, fmt.Errorf("reading the measured run's figures: %w\n%s", err, out.String())
			}
			fig.PeakRSS = max(fig.PeakRSS, peak)
			return fig, nil
		case <-tick.C:
			peak = max(peak, TreeRSS(cmd.Process.Pid))
		}
	}
}

func prune(on bool) string {
	if on {
		return "1"
	}
	return ""
}

func lastLine(b []byte) []byte {
	b = bytes.TrimSpace(b)
	if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
		return b[i+1:]
	}
	return b
}

// childMain runs the child's scenario when the variables say so; it
// reports whether it did.
func childMain() bool {
	path := os.Getenv(envChild)
	if path == "" {
		return false
	}
	if err := child(path); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	return true
}

func child(path string) error {
	s, err := scenarios.LoadFile(path)
	if err != nil {
		return err
	}
	if n, _ := strconv.Atoi(os.Getenv(envWorkloads)); n > 0 {
		total := 0
		for _, w := range s.Workloads {
			total += int(*w.Count)
		}
		Scale(s, float64(n)/float64(total))
	}
	o := Options{Prune: os.Getenv(envPrune) == "1", APIServerHeap: os.Getenv(envAPIHeap)}
	for env, d := range map[string]*time.Duration{envAPIProfileAfter: &o.APIServerProfileAfter, envAPIProfileFor: &o.APIServerProfileFor} {
		if v := os.Getenv(env); v != "" {
			var err error
			if *d, err = time.ParseDuration(v); err != nil {
				return fmt.Errorf("reading %s=%s: %w", env, v, err)
			}
		}
	}
	if p := os.Getenv(envEvents); p != "" {
		f, err := os.Create(p)
		if err != nil {
			return fmt.Errorf("opening the event log: %w", err)
		}
		defer f.Close()
		o.EventLog = f
	}
	if p := os.Getenv(envCPU); p != "" {
		// kube-apiserver's profile goes beside the child's.
		o.APIServerProfile = strings.TrimSuffix(p, ".cpu.pprof") + ".kube-apiserver.cpu.pprof"
		f, err := os.Create(p)
		if err != nil {
			return fmt.Errorf("opening the CPU profile: %w", err)
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return fmt.Errorf("profiling: %w", err)
		}
		defer pprof.StopCPUProfile()
	}
	if p := os.Getenv(envKueueLog); p != "" {
		o.KueueLogV = 2
		if i := strings.LastIndexByte(p, ':'); i >= 0 {
			v, err := strconv.Atoi(p[i+1:])
			if err != nil {
				return fmt.Errorf("reading %s=%s: the verbosity after the last ':' is not a number", envKueueLog, p)
			}
			p, o.KueueLogV = p[:i], v
		}
		f, err := os.Create(p)
		if err != nil {
			return fmt.Errorf("opening Kueue's log: %w", err)
		}
		defer f.Close()
		o.KueueLog = f
	} else {
		ctrl.SetLogger(logr.Discard())
	}
	if addr := os.Getenv(envPprof); addr != "" {
		runtime.SetBlockProfileRate(int(time.Millisecond))
		runtime.SetMutexProfileFraction(100)
		srv := &http.Server{Addr: addr, ReadHeaderTimeout: 10 * time.Second}
		go func() { _ = srv.ListenAndServe() }()
		defer srv.Close()
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	fig, err := Run(ctx, s, o)
	if err != nil {
		return err
	}
	data, err := json.Marshal(fig)
	if err != nil {
		return fmt.Errorf("writing figures: %w", err)
	}
	fmt.Println(string(data))
	return nil
}
