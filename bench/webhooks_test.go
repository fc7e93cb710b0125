package bench

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestWebhookCosts(t *testing.T) {
	metrics := []byte(`# HELP apiserver_admission_webhook_admission_duration_seconds [STABLE] Admission webhook latency
apiserver_admission_webhook_admission_duration_seconds_bucket{name="vworkload.kb.io",operation="UPDATE",rejected="false",type="validating",le="0.005"} 90
apiserver_admission_webhook_admission_duration_seconds_sum{name="vworkload.kb.io",operation="UPDATE",rejected="false",type="validating"} 1.5
apiserver_admission_webhook_admission_duration_seconds_count{name="vworkload.kb.io",operation="UPDATE",rejected="false",type="validating"} 100
apiserver_admission_webhook_admission_duration_seconds_sum{name="vworkload.kb.io",operation="CREATE",rejected="false",type="validating"} 0.5
apiserver_admission_webhook_admission_duration_seconds_count{name="vworkload.kb.io",operation="CREATE",rejected="false",type="validating"} 20
apiserver_admission_webhook_admission_duration_seconds_sum{name="mworkload.kb.io",operation="CREATE",rejected="false",type="admit"} 0.25
apiserver_admission_webhook_admission_duration_seconds_count{name="mworkload.kb.io",operation="CREATE",rejected="false",type="admit"} 20
apiserver_request_total{code="201",resource="workloads",verb="POST"} 20
`)
	got, err := webhookCosts(metrics)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]WebhookCost{
		"vworkload.kb.io": {Calls: 120, Seconds: 2},
		"mworkload.kb.io": {Calls: 20, Seconds: 0.25},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("webhookCosts (-want +got):\n%s", diff)
	}

	since := webhooksSince(map[string]WebhookCost{"vworkload.kb.io": {Calls: 20, Seconds: 0.5}, "mworkload.kb.io": {Calls: 20, Seconds: 0.25}}, got)
	if diff := cmp.Diff(map[string]WebhookCost{"vworkload.kb.io": {Calls: 100, Seconds: 1.5}}, since); diff != "" {
		t.Errorf("webhooksSince (-want +got):\n%s", diff)
	}
	if s, want := formatWebhooks(got), "vworkload.kb.io 120 calls 2.0 s, mworkload.kb.io 20 calls 0.2 s"; s != want {
		t.Errorf("formatWebhooks = %q, want %q", s, want)
	}
	if s := formatWebhooks(nil); s != "none" {
		t.Errorf("formatWebhooks(nil) = %q, want none", s)
	}
}
