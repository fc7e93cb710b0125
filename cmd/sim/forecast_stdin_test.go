package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// forecastCmd runs `sim forecast args...` in process with stdin and
// returns its exit code and output.
func forecastCmd(t *testing.T, stdin string, args ...string) (int, string) {
	t.Helper()
	root := newRootCmd()
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&out)
	root.SetIn(strings.NewReader(stdin))
	root.SetArgs(append([]string{"forecast"}, args...))
	err := root.Execute()
	if err == nil {
		return 0, out.String()
	}
	return exitCode(err), out.String() + "sim: " + err.Error() + "\n"
}

// Jobs read from stdin are named <stdin> in messages, with the line and
// document of the problem; nothing replays.
func TestForecastStdinBadSecondJob(t *testing.T) {
	data, err := os.ReadFile("testdata/forecast/job.yaml")
	if err != nil {
		t.Fatal(err)
	}
	job := string(data)
	second := strings.Replace(job, "queue-name: gpu", "queue-name: cpu", 1)
	code, out := forecastCmd(t, job+"---\n"+second, "-", "--scenario", "testdata/forecast/scenario.yaml")
	if code != 2 {
		t.Fatalf("exit %d, want 2:\n%s", code, out)
	}
	// The second document starts on line 21; its queue label is its 7th line.
	if want := "<stdin>:27: document 2: metadata.labels[kueue.x-k8s.io/queue-name]: cpu"; !strings.Contains(out, want) {
		t.Errorf("output lacks %q:\n%s", want, out)
	}
}

func TestForecastNoJobFile(t *testing.T) {
	if code, out := forecastCmd(t, "", "--scenario", "testdata/forecast/scenario.yaml"); code != 2 {
		t.Errorf("exit %d without a job file, want 2:\n%s", code, out)
	}
}

// -f - reads stdin as - does.
func TestForecastFilenameFlagReadsStdin(t *testing.T) {
	code, out := forecastCmd(t, "kind: Nothing\n", "-f", "-", "--scenario", "testdata/forecast/scenario.yaml")
	if code != 2 || !strings.Contains(out, "<stdin>") {
		t.Errorf("exit %d, want 2 naming <stdin>:\n%s", code, out)
	}
}
