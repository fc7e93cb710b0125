package forecast

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/kueue-sim/kueue-sim/scenarios"
)

func podSet(requests corev1.ResourceList) []scenarios.TemplatePodSet {
	return []scenarios.TemplatePodSet{{Name: "main", Count: 1, Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{
		Containers: []corev1.Container{{Name: "trainer", Resources: corev1.ResourceRequirements{Requests: requests}}}}}}}
}

// A job asking only for resources its ClusterQueue covers passes; one
// asking for another is refused at the line that names the resource, with
// what the ClusterQueue covers.
func TestCovers(t *testing.T) {
	s := loadTestScenario(t)
	j := variant(t, `nvidia.com/gpu: "4"}`, `nvidia.com/gpu: "4", example.com/fpga: "1"}`)
	gpus := corev1.ResourceList{"nvidia.com/gpu": resource.MustParse("4"), corev1.ResourceCPU: resource.MustParse("2")}
	if err := j.covers(s, "research", podSet(gpus)); err != nil {
		t.Errorf("covered resources: %v", err)
	}
	fpga := corev1.ResourceList{"example.com/fpga": resource.MustParse("1")}
	err := j.covers(s, "research", podSet(fpga))
	msg := asInputError(t, err).Error()
	for _, want := range []string{"job.yaml:18:", "containers[trainer].resources.requests[example.com/fpga]", "covers cpu, memory, nvidia.com/gpu"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message lacks %q: %s", want, msg)
		}
	}
	zero := corev1.ResourceList{"example.com/fpga": resource.MustParse("0")}
	if err := j.covers(s, "research", podSet(zero)); err != nil {
		t.Errorf("a zero request: %v", err)
	}
	if err := j.covers(s, "elsewhere", podSet(fpga)); err != nil {
		t.Errorf("a ClusterQueue the scenario does not define is Kueue's to judge: %v", err)
	}
}
