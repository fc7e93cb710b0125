package cluster

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	admissionv1 "k8s.io/api/admissionregistration/v1"

	"github.com/kueue-sim/kueue-sim/sim/assets"
)

func TestWithoutStatusRules(t *testing.T) {
	rule := func(resources ...string) admissionv1.RuleWithOperations {
		return admissionv1.RuleWithOperations{
			Operations: []admissionv1.OperationType{admissionv1.Create, admissionv1.Update},
			Rule:       admissionv1.Rule{APIGroups: []string{"kueue.x-k8s.io"}, APIVersions: []string{"v1beta2"}, Resources: resources},
		}
	}
	in := []*admissionv1.ValidatingWebhookConfiguration{{Webhooks: []admissionv1.ValidatingWebhook{
		{Name: "vworkload.kb.io", Rules: []admissionv1.RuleWithOperations{rule("workloads", "workloads/status")}},
		{Name: "vstatusonly.kb.io", Rules: []admissionv1.RuleWithOperations{rule("things/status")}},
		{Name: "vclusterqueue.kb.io", Rules: []admissionv1.RuleWithOperations{rule("clusterqueues")}},
	}}}
	want := []*admissionv1.ValidatingWebhookConfiguration{{Webhooks: []admissionv1.ValidatingWebhook{
		{Name: "vworkload.kb.io", Rules: []admissionv1.RuleWithOperations{rule("workloads")}},
		{Name: "vclusterqueue.kb.io", Rules: []admissionv1.RuleWithOperations{rule("clusterqueues")}},
	}}}
	got := withoutStatusRules(in)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("withoutStatusRules (-want +got):\n%s", diff)
	}
	if n := len(in[0].Webhooks[0].Rules[0].Resources); n != 2 {
		t.Errorf("withoutStatusRules changed its input: vworkload.kb.io has %d resources, want 2", n)
	}
}

// Kueue's own manifests: only the Workload webhook matches a status
// subresource, and it keeps validating Workload creates and updates.
func TestWithoutStatusRulesOnKueuesWebhooks(t *testing.T) {
	_, vals, err := assets.KueueWebhooks()
	if err != nil {
		t.Fatal(err)
	}
	count := func(vals []*admissionv1.ValidatingWebhookConfiguration) (hooks int, status []string, workloads bool) {
		for _, v := range vals {
			for _, h := range v.Webhooks {
				hooks++
				for _, r := range h.Rules {
					for _, res := range r.Resources {
						switch {
						case strings.HasSuffix(res, "/status"):
							status = append(status, h.Name+" "+res)
						case h.Name == "vworkload.kb.io" && res == "workloads":
							workloads = true
						}
					}
				}
			}
		}
		return hooks, status, workloads
	}
	beforeHooks, beforeStatus, _ := count(vals)
	if diff := cmp.Diff([]string{"vworkload.kb.io workloads/status"}, beforeStatus); diff != "" {
		t.Errorf("Kueue's validating webhooks on status subresources changed (-want +got):\n%s", diff)
	}
	afterHooks, afterStatus, workloads := count(withoutStatusRules(vals))
	if afterHooks != beforeHooks || len(afterStatus) != 0 || !workloads {
		t.Errorf("after withoutStatusRules: %d webhooks (want %d), status rules %v (want none), vworkload.kb.io matches workloads: %v (want true)", afterHooks, beforeHooks, afterStatus, workloads)
	}
}
