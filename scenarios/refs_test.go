package scenarios

import (
	"strings"
	"testing"
)

// TestAbsoluteRefs checks that every file reference a scenario holds is
// made absolute, the changes' apply files too, and that absolute ones stay.
func TestAbsoluteRefs(t *testing.T) {
	data := []byte(`queues:
  manifests: [manifests/]
cluster:
  kueueConfig: kueue.yaml
changes:
- at: 10m
  apply: [changes/stop.yaml, /abs/start.yaml]
- at: 20m
  delete: [{kind: LocalQueue, namespace: research, name: gpu}]
workloads:
- {name: train, template: job.yaml}
`)
	got, err := AbsoluteRefs(data, "/base")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"manifests: [/base/manifests]", "kueueConfig: /base/kueue.yaml",
		"apply: [/base/changes/stop.yaml, /abs/start.yaml]", "name: gpu", "template: /base/job.yaml",
	} {
		if !strings.Contains(string(got), want) {
			t.Errorf("AbsoluteRefs gave\n%s\nwithout %q", got, want)
		}
	}
}
