//go:build e2e

package importcluster

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/e2e-framework/pkg/envconf"

	"github.com/kueue-sim/kueue-sim/e2e/suite"
)

// reader is the user the forecast reads the cluster as: bound to
// config/rbac/reader.yaml's roles alone, which grant get and list.
const reader = "kueue-sim-reader"

// readerKubeconfig applies config/rbac/reader.yaml, binds its roles to the
// user reader (kueue-sim-reader cluster-wide, the other in Kueue's
// namespaces)
// and writes a kubeconfig that impersonates that user.
func readerKubeconfig(ctx context.Context, cfg *envconf.Config) (string, error) {
	if _, err := suite.Apply("config/rbac/reader.yaml")(ctx, cfg); err != nil {
		return "", err
	}
	c, err := suite.Client(cfg)
	if err != nil {
		return "", err
	}
	subjects := []rbacv1.Subject{{Kind: rbacv1.UserKind, APIGroup: rbacv1.GroupName, Name: reader}}
	objs := []client.Object{
		&rbacv1.ClusterRoleBinding{ObjectMeta: metav1.ObjectMeta{Name: reader}, Subjects: subjects,
			RoleRef: rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: "kueue-sim-reader"}},
	}
	// The cluster runs no Kueue of its own: the import looks for Kueue's
	// configuration in both of Kueue's namespaces, so the reader may read
	// both.
	for _, ns := range []string{"kueue-system", "openshift-kueue-operator"} {
		objs = append(objs, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}},
			&rbacv1.RoleBinding{ObjectMeta: metav1.ObjectMeta{Name: reader, Namespace: ns}, Subjects: subjects,
				RoleRef: rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: "kueue-sim-reader-kueue-namespace"}})
	}
	for _, obj := range objs {
		if err := c.Create(ctx, obj); err != nil && !apierrors.IsAlreadyExists(err) {
			return "", fmt.Errorf("binding the reader's roles: %w", err)
		}
	}
	return suite.ImpersonatingKubeconfig(reader, "system:authenticated")(ctx, cfg)
}
