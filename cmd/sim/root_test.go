package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/viper"
)

// Settings come from flags, then KUEUESIM_* variables, then the config file.
func TestSettingsPrecedence(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "sim.yaml")
	if err := os.WriteFile(cfg, []byte("write-kubeconfig: /from/file\nnodes: /nodes/from/file\nrun-root: /run/from/file\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("KUEUESIM_NODES", "/nodes/from/env")
	t.Setenv("KUEUESIM_RUN_ROOT", "/run/from/env")

	cmd := newUpCmd()
	if err := cmd.Flags().Parse([]string{"--run-root", "/run/from/flag"}); err != nil {
		t.Fatal(err)
	}
	if err := loadConfig(cmd, viper.New(), cfg); err != nil {
		t.Fatal(err)
	}
	for flag, want := range map[string]string{
		"write-kubeconfig": "/from/file",      // only in the file
		"nodes":            "/nodes/from/env", // env beats file
		"run-root":         "/run/from/flag",  // flag beats env and file
	} {
		if got := cmd.Flags().Lookup(flag).Value.String(); got != want {
			t.Errorf("--%s = %q, want %q", flag, got, want)
		}
	}
}

func TestBadSettingNamesItsVariable(t *testing.T) {
	t.Setenv("KUEUESIM_SEED", "not-a-number")
	cmd := &cobra.Command{Use: "x"}
	cmd.Flags().Int64("seed", 0, "")
	err := loadConfig(cmd, viper.New(), "")
	if err == nil || !strings.Contains(err.Error(), "KUEUESIM_SEED") {
		t.Fatalf("error %v does not name KUEUESIM_SEED", err)
	}
}
