package simrun_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/kueue-sim/kueue-sim/sim/simrun"
)

// A child's exit code is its result: for `sim run`, 1 means an
// expectation failed and the report is written, so a caller reads it.
func ExampleRun() {
	dir, _ := os.MkdirTemp("", "simrun")
	defer os.RemoveAll(dir)
	// Here /bin/sh stands for the sim binary.
	res, err := simrun.Run(context.Background(), "/bin/sh", filepath.Join(dir, "run.log"), "-c", "echo replayed; exit 1")
	if err != nil {
		fmt.Println("could not run:", err)
		return
	}
	log, _ := os.ReadFile(res.Log)
	fmt.Printf("exit %d, log: %s", res.ExitCode, log)
	// Output: exit 1, log: replayed
}
