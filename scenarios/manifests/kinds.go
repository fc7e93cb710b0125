package manifests

import (
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/controller-runtime/pkg/client"
	kueuev1beta1 "sigs.k8s.io/kueue/apis/kueue/v1beta1"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
	"sigs.k8s.io/kueue/pkg/webhooks"

	dscv1 "github.com/kueue-sim/kueue-sim/api/datasciencecluster/v1"
	infrav1 "github.com/kueue-sim/kueue-sim/api/infrastructure/v1"
	odhv1alpha "github.com/kueue-sim/kueue-sim/api/opendatahub/v1alpha"
	"github.com/kueue-sim/kueue-sim/scenarios/internal/yamlcheck"
)

// Kueue's API group and the versions a manifest may be written in.
const (
	kueueGroup   = "kueue.x-k8s.io"
	kueueV1beta2 = kueueGroup + "/v1beta2"
	kueueV1beta1 = kueueGroup + "/v1beta1"
)

// kind is how a supported kind is decoded and checked.
type kind struct {
	namespaced bool
	// decode is the Go type a document decodes into.
	decode func() client.Object
	// convert makes the v1beta2 object of a v1beta1 one; nil when decode's
	// type is the one applied.
	convert func(client.Object) (client.Object, error)
	// open are the mappings whose unknown fields the kind's CRD keeps
	// (x-kubernetes-preserve-unknown-fields) or kueue-sim ignores: they are
	// not refused.
	open []string
	// refused are the fields kueue-sim cannot apply (no equivalent in
	// v1beta2, or nothing in the simulation acts on them), each with the fix.
	refused map[string]string
	// validate is Kueue's own webhook validation of the kind, if exported.
	validate func(client.Object) field.ErrorList
	// shape checks the fields kueue-sim reads of a kind decoded as an
	// *unstructured.Unstructured, whose type says nothing of them; its
	// errors are filtered by open too.
	shape func(m map[string]any, o yamlcheck.Options) field.ErrorList
	// check is what kueue-sim checks of a decoded object besides its type:
	// what the kind's API server, webhooks or operator would refuse, and
	// what kueue-sim cannot run. Each message stands on its own.
	check func(client.Object) field.ErrorList
}

// kinds are the supported kinds by apiVersion and kind.
var kinds = map[string]map[string]kind{
	kueueV1beta2: {
		"ResourceFlavor": {decode: func() client.Object { return &kueue.ResourceFlavor{} },
			validate: func(o client.Object) field.ErrorList {
				return webhooks.ValidateResourceFlavor(o.(*kueue.ResourceFlavor))
			}},
		"Cohort": {decode: func() client.Object { return &kueue.Cohort{} }},
		"ClusterQueue": {decode: func() client.Object { return &kueue.ClusterQueue{} }, refused: admissionChecks,
			validate: func(o client.Object) field.ErrorList { return webhooks.ValidateClusterQueue(o.(*kueue.ClusterQueue)) }},
		"LocalQueue":            {namespaced: true, decode: func() client.Object { return &kueue.LocalQueue{} }},
		"WorkloadPriorityClass": {decode: func() client.Object { return &kueue.WorkloadPriorityClass{} }},
		"Topology":              {decode: func() client.Object { return &kueue.Topology{} }},
	},
	kueueV1beta1: {
		"ResourceFlavor": v1beta1Kind(func() client.Object { return &kueuev1beta1.ResourceFlavor{} }, func(in client.Object) (client.Object, error) {
			out := &kueue.ResourceFlavor{}
			return out, kueuev1beta1.Convert_v1beta1_ResourceFlavor_To_v1beta2_ResourceFlavor(in.(*kueuev1beta1.ResourceFlavor), out, nil)
		}),
		"Cohort": v1beta1Kind(func() client.Object { return &kueuev1beta1.Cohort{} }, func(in client.Object) (client.Object, error) {
			out := &kueue.Cohort{}
			return out, in.(*kueuev1beta1.Cohort).ConvertTo(out)
		}),
		"ClusterQueue": func() kind {
			k := v1beta1Kind(func() client.Object { return &kueuev1beta1.ClusterQueue{} }, func(in client.Object) (client.Object, error) {
				out := &kueue.ClusterQueue{}
				return out, in.(*kueuev1beta1.ClusterQueue).ConvertTo(out)
			})
			k.refused = admissionChecks
			return k
		}(),
		"LocalQueue": func() kind {
			k := v1beta1Kind(func() client.Object { return &kueuev1beta1.LocalQueue{} }, func(in client.Object) (client.Object, error) {
				out := &kueue.LocalQueue{}
				return out, in.(*kueuev1beta1.LocalQueue).ConvertTo(out)
			})
			k.namespaced = true
			return k
		}(),
		"WorkloadPriorityClass": v1beta1Kind(func() client.Object { return &kueuev1beta1.WorkloadPriorityClass{} }, func(in client.Object) (client.Object, error) {
			out := &kueue.WorkloadPriorityClass{}
			return out, kueuev1beta1.Convert_v1beta1_WorkloadPriorityClass_To_v1beta2_WorkloadPriorityClass(in.(*kueuev1beta1.WorkloadPriorityClass), out, nil)
		}),
		"Topology": v1beta1Kind(func() client.Object { return &kueuev1beta1.Topology{} }, func(in client.Object) (client.Object, error) {
			out := &kueue.Topology{}
			return out, kueuev1beta1.Convert_v1beta1_Topology_To_v1beta2_Topology(in.(*kueuev1beta1.Topology), out, nil)
		}),
	},
	dscv1.GroupVersion.String(): {
		// The platform runs Kueue only: the other components' settings
		// are accepted and ignored.
		"DataScienceCluster": {decode: func() client.Object { return &dscv1.DataScienceCluster{} }, open: []string{"spec.components"}},
	},
	infrav1.GroupVersion.String(): {
		"HardwareProfile": {namespaced: true, decode: func() client.Object { return &infrav1.HardwareProfile{} }},
	},
	odhv1alpha.GroupVersion.String(): {
		"OdhDashboardConfig": {namespaced: true, decode: func() client.Object { return &odhv1alpha.OdhDashboardConfig{} },
			open: []string{"spec", "spec.dashboardConfig"}},
	},
	"v1": {
		"Namespace": {decode: func() client.Object { return &corev1.Namespace{} }},
	},
}

// admissionChecks are the ClusterQueue fields that name AdmissionChecks.
var admissionChecks = map[string]string{
	"spec.admissionChecks":         noAdmissionChecks,
	"spec.admissionChecksStrategy": noAdmissionChecks,
}

const noAdmissionChecks = "no admission-check controller runs in kueue-sim, so the ClusterQueue would never admit: remove it"

// v1beta1Kind is a Kueue kind written in v1beta1: the validation is the
// v1beta2 kind's, run on the converted object.
func v1beta1Kind(decode func() client.Object, convert func(client.Object) (client.Object, error)) kind {
	return kind{decode: decode, convert: convert}
}

// kindOf finds a supported kind; the v1beta1 Kueue kinds validate as their
// v1beta2 kind does.
func kindOf(apiVersion, name string) (kind, bool) {
	k, ok := kinds[apiVersion][name]
	if ok && apiVersion == kueueV1beta1 {
		k.validate = kinds[kueueV1beta2][name].validate
	}
	return k, ok
}

// SupportedKinds names the kinds queues.manifests takes.
const SupportedKinds = "ResourceFlavor, Cohort, ClusterQueue, LocalQueue, WorkloadPriorityClass and Topology (kueue.x-k8s.io/v1beta2 or v1beta1), " +
	"DataScienceCluster (datasciencecluster.opendatahub.io/v1), HardwareProfile (infrastructure.opendatahub.io/v1), " +
	"OdhDashboardConfig (opendatahub.io/v1alpha), Namespace (v1), and Lists (v1) of them"

// whyUnsupported is the message on a kind kueue-sim does not apply.
func whyUnsupported(apiVersion, name string) string {
	group, _, _ := strings.Cut(apiVersion, "/")
	if !strings.Contains(apiVersion, "/") {
		group = ""
	}
	var why string
	switch {
	case group == kueueGroup && name == "AdmissionCheck":
		why = "no admission-check controller runs in kueue-sim, so a ClusterQueue using it would never admit: remove it and the ClusterQueue's admissionChecks"
	case group == kueueGroup && (name == "Workload" || name == "ProvisioningRequestConfig" || strings.HasPrefix(name, "MultiKueue")):
		why = "kueue-sim makes the workloads itself and runs one cluster: remove it (streams under workloads submit the workloads)"
	case group == kueueGroup && apiVersion != kueueV1beta1 && apiVersion != kueueV1beta2:
		why = "write it in kueue.x-k8s.io/v1beta2 (or v1beta1)"
	case name == "":
		why = "give each document apiVersion and kind"
	default:
		why = "remove the document or move it to a file the scenario does not list"
	}
	return fmt.Sprintf("kind %q (apiVersion %q) is not supported in queues.manifests: %s; supported kinds are %s", name, apiVersion, why, SupportedKinds)
}
