package cluster

import (
	"fmt"
	"os"
	"path/filepath"
)

// logPath is where the named child process writes its output.
func (cp *ControlPlane) logPath(name string) string {
	return filepath.Join(cp.RunDir, "logs", name+".log")
}

func (cp *ControlPlane) logFile(name string) (*os.File, error) {
	if _, err := cp.run.Sub("logs"); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(cp.logPath(name), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("opening log of %s: %w", name, err)
	}
	return f, nil
}
