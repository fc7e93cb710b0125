// Package clustertest starts one embedded control plane for a package's
// integration tests and offers the polling helpers they share.
package clustertest

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"

	"github.com/kueue-sim/kueue-sim/nodes"
	"github.com/kueue-sim/kueue-sim/sim/cluster"
)

// GPU product labels of the test pools.
const (
	A100 = "NVIDIA-A100-SXM4-80GB"
	L4   = "NVIDIA-L4"
)

// Pools are the test node pools: two A100 and two L4 nodes with 4 GPUs each,
// and two CPU-only nodes.
func Pools() []nodes.Pool {
	gpu := func(name, product string) nodes.Pool {
		return nodes.Pool{
			Name: name, Count: 2,
			Labels: map[string]string{nodes.GPUProductLabel: product},
			Allocatable: corev1.ResourceList{
				corev1.ResourceCPU:    resource.MustParse("32"),
				corev1.ResourceMemory: resource.MustParse("256Gi"),
				nodes.GPUResource:     resource.MustParse("4"),
			},
		}
	}
	return []nodes.Pool{
		gpu("a100", A100), gpu("l4", L4),
		{Name: "cpu", Count: 2, Allocatable: corev1.ResourceList{
			corev1.ResourceCPU:    resource.MustParse("16"),
			corev1.ResourceMemory: resource.MustParse("64Gi"),
		}},
	}
}

// Main starts a control plane with opts (plus the test pools), runs the
// tests, stops it, and exits. A control plane that cannot start fails the
// run with the reason: the README's test command builds the binaries first.
func Main(m *testing.M, cp **cluster.ControlPlane, opts ...cluster.Option) {
	os.Exit(run(m, cp, opts))
}

func run(m *testing.M, cpp **cluster.ControlPlane, opts []cluster.Option) int {
	if os.Getenv("KUEUESIM_TEST_LOG") != "" {
		ctrl.SetLogger(zap.New(zap.UseDevMode(true)))
	} else {
		ctrl.SetLogger(zap.New(zap.WriteTo(devNull{})))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	start := time.Now()
	cp, err := cluster.Start(ctx, append([]cluster.Option{cluster.WithNodePools(Pools()...)}, opts...)...)
	if err != nil {
		fmt.Fprintf(os.Stderr, "starting the embedded control plane: %v\n", err)
		return 1
	}
	fmt.Fprintf(os.Stderr, "embedded control plane up in %s\n", time.Since(start).Round(time.Millisecond))
	*cpp = cp
	code := m.Run()
	if err := cp.Stop(); err != nil {
		fmt.Fprintf(os.Stderr, "stopping the embedded control plane: %v\n", err)
		if code == 0 {
			code = 1
		}
	}
	return code
}

type devNull struct{}

func (devNull) Write(p []byte) (int, error) { return len(p), nil }

// Eventually polls cond every 100ms until it returns nil or timeout passes,
// then fails the test with cond's last error.
func Eventually(t testing.TB, timeout time.Duration, cond func(ctx context.Context) error) {
	t.Helper()
	var last error
	err := wait.PollUntilContextTimeout(context.Background(), 100*time.Millisecond, timeout, true,
		func(ctx context.Context) (bool, error) {
			last = cond(ctx)
			return last == nil, nil
		})
	if err != nil {
		t.Fatalf("after %s: %v", timeout, last)
	}
}

// Consistently checks cond every 100ms for d and fails the test the first
// time it returns an error.
func Consistently(t testing.TB, d time.Duration, cond func(ctx context.Context) error) {
	t.Helper()
	ctx := context.Background()
	for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
		if err := cond(ctx); err != nil {
			t.Fatalf("within %s: %v", d, err)
		}
	}
}

// Namespace creates a namespace named after the test and returns its name.
func Namespace(t testing.TB, c client.Client, labels map[string]string) string {
	t.Helper()
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: "t-", Labels: labels}}
	if err := c.Create(context.Background(), ns); err != nil {
		t.Fatalf("creating namespace: %v", err)
	}
	return ns.Name
}

// Create creates objs, failing the test on error.
func Create(t testing.TB, c client.Client, objs ...client.Object) {
	t.Helper()
	for _, o := range objs {
		if err := c.Create(context.Background(), o); err != nil {
			t.Fatalf("creating %T %s: %v", o, o.GetName(), err)
		}
	}
}
