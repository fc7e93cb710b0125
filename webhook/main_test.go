//go:build integration

package webhook_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	dscv1 "github.com/kueue-sim/kueue-sim/api/datasciencecluster/v1"
	"github.com/kueue-sim/kueue-sim/sim/cluster"
	"github.com/kueue-sim/kueue-sim/sim/cluster/clustertest"
	"github.com/kueue-sim/kueue-sim/webhook"
)

var cp *cluster.ControlPlane

func TestMain(m *testing.M) {
	clustertest.Main(m, &cp, cluster.WithSetup(webhook.Setup), cluster.WithWebhooks(webhook.Configurations()))
}

// dscName is the one DataScienceCluster of these tests.
const dscName = "default-dsc"

// kueueState creates or updates the DataScienceCluster with Kueue in state;
// "" deletes it. Tests that need a state set it first: they run one at a
// time.
func kueueState(t *testing.T, state dscv1.ManagementState) {
	t.Helper()
	ctx := context.Background()
	d := &dscv1.DataScienceCluster{}
	err := cp.Client.Get(ctx, client.ObjectKey{Name: dscName}, d)
	switch {
	case apierrors.IsNotFound(err) && state == "":
		return
	case apierrors.IsNotFound(err):
		d = &dscv1.DataScienceCluster{ObjectMeta: metav1.ObjectMeta{Name: dscName}}
		d.Spec.Components.Kueue.ManagementState = state
		err = cp.Client.Create(ctx, d)
	case err != nil:
	case state == "":
		err = cp.Client.Delete(ctx, d)
	default:
		d.Spec.Components.Kueue.ManagementState = state
		err = cp.Client.Update(ctx, d)
	}
	if err != nil {
		t.Fatalf("setting Kueue %q in DataScienceCluster %s: %v", state, dscName, err)
	}
}

var (
	managedLabels = map[string]string{dscv1.KueueManagedLabel: "true"}
	legacyLabels  = map[string]string{dscv1.LegacyKueueManagedLabel: "true"}
)

// denied asserts that err is a webhook refusal by our validating (or
// mutating) webhook whose message contains every part.
func denied(t *testing.T, err error, hook string, parts ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("admitted, want refused by %s", hook)
	}
	msg := err.Error()
	if !strings.Contains(msg, `admission webhook "`+hook+`" denied the request`) {
		t.Fatalf("refused, but not by %s: %v", hook, err)
	}
	for _, p := range parts {
		if !strings.Contains(msg, p) {
			t.Errorf("refusal lacks %q:\n%s", p, msg)
		}
	}
}

func admitted(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("refused, want admitted: %v", err)
	}
}

// warnings records the API server's warnings to a client.
type warnings struct {
	mu   sync.Mutex
	list []string
}

func (w *warnings) HandleWarningHeader(_ int, _ string, text string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.list = append(w.list, text)
}

func (w *warnings) all() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.list...)
}

// warningClient is a client whose warnings are recorded.
func warningClient(t *testing.T) (client.Client, *warnings) {
	t.Helper()
	cfg := rest.CopyConfig(cp.Config)
	w := &warnings{}
	cfg.WarningHandler = w
	c, err := client.New(cfg, client.Options{Scheme: cp.Scheme})
	if err != nil {
		t.Fatal(err)
	}
	return c, w
}

// withName sets obj's name (for get).
func withName[T client.Object](obj T, name string) T {
	obj.SetName(name)
	return obj
}

// get re-reads obj.
func get(t *testing.T, obj client.Object) {
	t.Helper()
	if err := cp.Client.Get(context.Background(), client.ObjectKeyFromObject(obj), obj); err != nil {
		t.Fatalf("reading %s: %v", obj.GetName(), err)
	}
}

// absent asserts that no object of kind named ns/name exists.
func absent(t *testing.T, kind webhook.Kind, ns, name string) {
	t.Helper()
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(kind.GroupVersionKind)
	err := cp.Client.Get(context.Background(), client.ObjectKey{Namespace: ns, Name: name}, u)
	if !apierrors.IsNotFound(err) {
		t.Fatalf("%s %s/%s exists (or cannot be read: %v), want absent", kind.Kind, ns, name, err)
	}
}
