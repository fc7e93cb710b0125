// Package scheme builds the runtime.Scheme shared by every client and
// controller kueue-sim runs: Kubernetes' built-in types, Kueue's APIs and
// config, the types of every Kueue job integration (PyTorchJob, RayJob,
// RayCluster, ...), CustomResourceDefinitions, and kueue-sim's OpenShift AI
// and Kueue-operator APIs (package api).
package scheme

import (
	"fmt"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	configapi "sigs.k8s.io/kueue/apis/config/v1beta2"
	kueuealpha "sigs.k8s.io/kueue/apis/kueue/v1alpha1"
	kueuev1beta1 "sigs.k8s.io/kueue/apis/kueue/v1beta1"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
	"sigs.k8s.io/kueue/pkg/controller/jobframework"

	// Registers every Kueue job integration with jobframework.
	_ "sigs.k8s.io/kueue/pkg/controller/jobs"

	dashboardv1 "github.com/kueue-sim/kueue-sim/api/dashboard/v1"
	dscv1 "github.com/kueue-sim/kueue-sim/api/datasciencecluster/v1"
	infrav1 "github.com/kueue-sim/kueue-sim/api/infrastructure/v1"
	kueueoperatorv1 "github.com/kueue-sim/kueue-sim/api/kueueoperator/v1"
	odhv1alpha "github.com/kueue-sim/kueue-sim/api/opendatahub/v1alpha"
)

// New returns a scheme with every type kueue-sim reads or writes.
func New() (*runtime.Scheme, error) {
	s := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{
		clientgoscheme.AddToScheme,
		kueue.AddToScheme,
		kueuev1beta1.AddToScheme,
		kueuealpha.AddToScheme,
		configapi.AddToScheme,
		apiextensionsv1.AddToScheme,
		dscv1.AddToScheme,
		odhv1alpha.AddToScheme,
		infrav1.AddToScheme,
		dashboardv1.AddToScheme,
		kueueoperatorv1.AddToScheme,
	} {
		if err := add(s); err != nil {
			return nil, fmt.Errorf("building scheme: %w", err)
		}
	}
	err := jobframework.ForEachIntegration(func(name string, cb jobframework.IntegrationCallbacks) error {
		if cb.AddToScheme == nil {
			return nil
		}
		if err := cb.AddToScheme(s); err != nil {
			return fmt.Errorf("adding integration %s to scheme: %w", name, err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return s, nil
}
