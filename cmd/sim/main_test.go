package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

var (
	binDir    string
	buildOnce sync.Once
	buildErr  error
	binPath   string
)

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "sim-test-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// buildSim compiles the sim command once per test run and returns its path.
func buildSim(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		binPath = filepath.Join(binDir, "sim")
		args := []string{"build", "-o", binPath}
		if os.Getenv("KUEUESIM_TEST_RACE") == "1" {
			// make race: the replays run in this binary, so the race
			// detector must be in it.
			args = append(args, "-race")
		}
		out, err := exec.Command("go", append(args, ".")...).CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("building sim: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}
