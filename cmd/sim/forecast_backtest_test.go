package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// Bad input to sim forecast backtest exits 2 before anything replays.
func TestForecastBacktestRefusesBadInput(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"no such scenario", []string{filepath.Join(t.TempDir(), "none.yaml")}, "none.yaml"},
		{"no targets", []string{"../../scenarios/forecast-backtest.yaml", "--targets", "0"}, "--targets 0"},
		{"no runs", []string{"../../scenarios/forecast-backtest.yaml", "--runs", "0"}, "--runs 0"},
		{"unknown output", []string{"../../scenarios/forecast-backtest.yaml", "-o", "yaml"}, "--output"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := run(append([]string{"forecast", "backtest"}, c.args...))
			if code := exitCode(err); err == nil || code != 2 {
				t.Fatalf("got %v (exit %d), want exit 2", err, code)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q does not name %q", err, c.want)
			}
		})
	}
}
