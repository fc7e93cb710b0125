package procs

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
)

// EnvRunRoot overrides the folder under which run folders are made.
const EnvRunRoot = "KUEUESIM_RUN_ROOT"

const recordFile = "processes.json"

// DefaultRunRoot is $KUEUESIM_RUN_ROOT, or kueue-sim-<uid> in the temporary
// folder.
func DefaultRunRoot() string {
	if r := os.Getenv(EnvRunRoot); r != "" {
		return r
	}
	return filepath.Join(os.TempDir(), fmt.Sprintf("kueue-sim-%d", os.Getuid()))
}

// RunDir is the folder of one running kueue-sim: its children's files and a
// record of their PIDs.
type RunDir struct {
	Path string

	mu  sync.Mutex
	rec record
}

type record struct {
	Owner    entry   `json:"owner"`
	Children []entry `json:"children"`
}

type entry struct {
	PID       int    `json:"pid"`
	StartTime uint64 `json:"startTime"`
	Name      string `json:"name,omitempty"`
}

// NewRunDir makes a run folder for this process under root.
func NewRunDir(root string) (*RunDir, error) {
	st, err := readStat(os.Getpid())
	if err != nil {
		return nil, fmt.Errorf("reading own process start time: %w", err)
	}
	if err := os.MkdirAll(root, 0o700); err != nil {
		return nil, fmt.Errorf("making run root %s: %w", root, err)
	}
	dir, err := os.MkdirTemp(root, fmt.Sprintf("run-%d-", os.Getpid()))
	if err != nil {
		return nil, fmt.Errorf("making run folder: %w", err)
	}
	r := &RunDir{Path: dir, rec: record{Owner: entry{PID: os.Getpid(), StartTime: st.StartTime}}}
	return r, r.save()
}

// Sub returns the path of a sub-folder of the run folder, creating it.
func (r *RunDir) Sub(name string) (string, error) {
	p := filepath.Join(r.Path, name)
	return p, os.MkdirAll(p, 0o700)
}

// Record notes a child process so that a later CleanupStale can end it if
// this process dies without stopping it.
func (r *RunDir) Record(name string, pid int) error {
	st, err := readStat(pid)
	if err != nil {
		return fmt.Errorf("recording %s (pid %d): %w", name, pid, err)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.rec.Children = append(r.rec.Children, entry{PID: pid, StartTime: st.StartTime, Name: name})
	return r.save()
}

func (r *RunDir) save() error {
	data, err := json.Marshal(r.rec)
	if err != nil {
		return err
	}
	tmp := filepath.Join(r.Path, recordFile+".tmp")
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		return fmt.Errorf("writing process record: %w", err)
	}
	return os.Rename(tmp, filepath.Join(r.Path, recordFile))
}

// Remove deletes the run folder. Call it after every child has stopped.
func (r *RunDir) Remove() error { return os.RemoveAll(r.Path) }

// CleanupStale ends the recorded children of every run folder under root
// whose owner process is gone, and removes those folders. It returns what it
// did, one line per process or folder, for the user to see.
func CleanupStale(root string) ([]string, error) {
	entries, err := os.ReadDir(root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("listing run folders in %s: %w", root, err)
	}
	var did []string
	var errs []error
	for _, e := range entries {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), "run-") {
			continue
		}
		dir := filepath.Join(root, e.Name())
		rec, err := readRecord(dir)
		if err != nil {
			// A folder with no readable record is either being made right now
			// or was left half-made; only remove old ones.
			if info, serr := e.Info(); serr == nil && time.Since(info.ModTime()) > time.Minute {
				did = append(did, "removed unreadable run folder "+dir)
				errs = append(errs, os.RemoveAll(dir))
			}
			continue
		}
		if alive(rec.Owner.PID, rec.Owner.StartTime) {
			continue
		}
		for _, c := range rec.Children {
			if !alive(c.PID, c.StartTime) {
				continue
			}
			_ = syscall.Kill(c.PID, syscall.SIGKILL)
			did = append(did, fmt.Sprintf("killed leftover %s (pid %d) of a kueue-sim that is gone (pid %d)", c.Name, c.PID, rec.Owner.PID))
		}
		for _, c := range rec.Children {
			waitGone(c.PID, c.StartTime, 5*time.Second)
		}
		did = append(did, "removed leftover run folder "+dir)
		errs = append(errs, os.RemoveAll(dir))
	}
	return did, errors.Join(errs...)
}

func readRecord(dir string) (record, error) {
	var rec record
	data, err := os.ReadFile(filepath.Join(dir, recordFile))
	if err != nil {
		return rec, err
	}
	return rec, json.Unmarshal(data, &rec)
}

func waitGone(pid int, start uint64, limit time.Duration) {
	deadline := time.Now().Add(limit)
	for alive(pid, start) && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
}
