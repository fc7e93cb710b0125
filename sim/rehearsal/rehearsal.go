package rehearsal

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/kueue-sim/kueue-sim/kueuerelease"
	"github.com/kueue-sim/kueue-sim/reports/compare"
	"github.com/kueue-sim/kueue-sim/reports/upgrade"
	"github.com/kueue-sim/kueue-sim/sim/assets"
	"github.com/kueue-sim/kueue-sim/sim/simrun"
)

// ErrRelease is wrapped by Run's error when --from or --to names a release
// kueue-sim does not run, or one whose sim is not built.
var ErrRelease = errors.New("release unavailable")

// releaseError is an error of ErrRelease that reads as its cause.
type releaseError struct{ err error }

func (e releaseError) Error() string        { return e.err.Error() }
func (e releaseError) Unwrap() error        { return e.err }
func (e releaseError) Is(target error) bool { return target == ErrRelease }

// ErrScenario is wrapped by Run's error when a release refuses the
// scenario (its sim exits 2): bad input, not a failed rehearsal.
var ErrScenario = errors.New("the scenario does not load")

// Option configures Run.
type Option func(*options)

type options struct {
	thresholds *compare.Thresholds
	self       string
	log        io.Writer
	runArgs    []string
}

// WithThresholds judges the metrics by th (sim compare's thresholds).
func WithThresholds(th *compare.Thresholds) Option { return func(o *options) { o.thresholds = th } }

// WithSelf names the sim binary whose folder holds the other releases'
// sims (after it, the binary folder does) and which runs its own release
// (default: this executable).
func WithSelf(path string) Option { return func(o *options) { o.self = path } }

// WithLog receives a line as each replay starts and ends.
func WithLog(w io.Writer) Option { return func(o *options) { o.log = w } }

// WithRunArgs adds arguments to both replays' sim run (such as --seed).
func WithRunArgs(args ...string) Option {
	return func(o *options) { o.runArgs = append(o.runArgs, args...) }
}

// side is one release's half of the rehearsal: its report folder is
// dir/from or dir/to.
type side struct {
	name, release, sim, dir string
}

// Run replays the scenario at path on Kueue releases from and to (each a
// release or a minor, for its newest supported release), writes each run's report to dir/from and dir/to
// and the upgrade report to dir, and returns it.
func Run(ctx context.Context, path string, from, to, dir string, opts ...Option) (*upgrade.Report, error) {
	o := options{log: io.Discard}
	for _, opt := range opts {
		opt(&o)
	}
	if o.self == "" {
		self, err := os.Executable()
		if err != nil {
			return nil, fmt.Errorf("finding this sim: %w", err)
		}
		o.self = self
	}
	// The binary folder also holds the sims sim tools install kueue@<release>
	// builds; without one, only those beside this sim count.
	binDir, _ := assets.DefaultBinDir()
	sides := []*side{{name: "from", release: from}, {name: "to", release: to}}
	for _, sd := range sides {
		bin, err := assets.KueueRelease(sd.release, kueuerelease.Compiled(), o.self, binDir)
		if err != nil {
			return nil, releaseError{fmt.Errorf("--%s: %w", sd.name, err)}
		}
		sd.release, _ = kueuerelease.Resolve(sd.release) // a minor names its newest release
		sd.sim, sd.dir = bin, filepath.Join(dir, sd.name)
		if bin == "" {
			sd.sim = o.self
		}
		// A folder of its own, emptied: a report left by an earlier
		// rehearsal must never pass for this one's.
		if err := os.RemoveAll(sd.dir); err != nil {
			return nil, fmt.Errorf("emptying %s: %w", sd.dir, err)
		}
		if err := os.MkdirAll(sd.dir, 0o755); err != nil {
			return nil, fmt.Errorf("making %s: %w", sd.dir, err)
		}
	}
	if sides[0].release == sides[1].release {
		return nil, releaseError{fmt.Errorf("--from and --to both name Kueue %s: name the release the cluster runs and the one to upgrade to", sides[0].release)}
	}
	var defaults [2]kueuerelease.Defaults
	for i, sd := range sides {
		d, err := sd.defaults(ctx, path)
		if err != nil {
			return nil, err
		}
		defaults[i] = d
	}
	for _, sd := range sides {
		fmt.Fprintf(o.log, "replaying on Kueue %s (%s)\n", sd.release, sd.dir)
		if err := sd.replay(ctx, path, o.runArgs); err != nil {
			return nil, err
		}
	}
	rep, err := upgrade.Build(sides[0].dir, sides[1].dir, kueuerelease.Changes(defaults[0], defaults[1]), o.thresholds)
	if err != nil {
		return nil, err
	}
	if err := rep.WriteFiles(dir); err != nil {
		return nil, err
	}
	return rep, nil
}

// defaults asks the side's sim for its Kueue's feature gates and the
// defaults it derives from the scenario's configuration: that sim loads
// the scenario, so its own release checks cluster.kueue and picks its
// cluster.kueueReleases bodies, and a problem names the scenario's line.
func (sd *side) defaults(ctx context.Context, path string) (kueuerelease.Defaults, error) {
	var d kueuerelease.Defaults
	var out, errOut bytes.Buffer
	cmd := sd.command(ctx, "kueue-defaults", "--scenario", path, "-o", "json")
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) && exit.ExitCode() == 2 {
			return d, fmt.Errorf("%w on Kueue %s: %s", ErrScenario, sd.release, strings.TrimSpace(errOut.String()))
		}
		return d, fmt.Errorf("reading Kueue %s's defaults (%s kueue-defaults): %w: %s", sd.release, sd.sim, err, strings.TrimSpace(errOut.String()))
	}
	if err := json.Unmarshal(out.Bytes(), &d); err != nil {
		return d, fmt.Errorf("reading Kueue %s's defaults: %w", sd.release, err)
	}
	return d, nil
}

// command runs the side's sim with args, stopped as Ctrl-C would stop it.
func (sd *side) command(ctx context.Context, args ...string) *exec.Cmd {
	return simrun.Command(ctx, sd.sim, args...)
}

// replay runs the scenario on the side's sim, its output in run.log. A
// run that ends with an expectation failed (exit 1, its report written)
// is part of what the rehearsal reports, not an error.
func (sd *side) replay(ctx context.Context, path string, extra []string) error {
	args := append([]string{"run", path, "--kueue", sd.release, "--report", sd.dir, "--progress", "none"}, extra...)
	res, err := simrun.Run(ctx, sd.sim, filepath.Join(sd.dir, "run.log"), args...)
	switch {
	case err != nil:
		return fmt.Errorf("replaying on Kueue %s: %w", sd.release, err)
	case res.ExitCode == 0:
		return nil
	case res.ExitCode == 1 && exists(filepath.Join(sd.dir, "report.json")):
		return nil // the run ended and an expectation failed
	case res.ExitCode == 2:
		return fmt.Errorf("%w on Kueue %s: %s", ErrScenario, sd.release, tail(res.Log))
	default:
		return fmt.Errorf("replaying on Kueue %s: sim run exited %d (its output: %s)", sd.release, res.ExitCode, res.Log)
	}
}

// tail is the last lines of a run's log, for an error message.
func tail(path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return path
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) > 12 {
		lines = lines[len(lines)-12:]
	}
	return strings.Join(lines, "\n")
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
