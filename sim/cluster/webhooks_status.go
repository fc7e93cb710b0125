package cluster

import (
	"strings"

	admissionv1 "k8s.io/api/admissionregistration/v1"
)

// withoutStatusRules returns copies of vals whose rules no longer match
// status subresources ("workloads/status"); everything else they match
// stays (WithoutStatusValidation). A rule left matching nothing is
// dropped, and so is a webhook left with no rule.
func withoutStatusRules(vals []*admissionv1.ValidatingWebhookConfiguration) []*admissionv1.ValidatingWebhookConfiguration {
	out := make([]*admissionv1.ValidatingWebhookConfiguration, 0, len(vals))
	for _, v := range vals {
		v = v.DeepCopy()
		hooks := v.Webhooks[:0]
		for _, h := range v.Webhooks {
			rules := h.Rules[:0]
			for _, r := range h.Rules {
				res := r.Resources[:0]
				for _, name := range r.Resources {
					if !strings.HasSuffix(name, "/status") {
						res = append(res, name)
					}
				}
				if len(res) > 0 {
					r.Resources = res
					rules = append(rules, r)
				}
			}
			if len(rules) > 0 {
				h.Rules = rules
				hooks = append(hooks, h)
			}
		}
		v.Webhooks = hooks
		out = append(out, v)
	}
	return out
}
