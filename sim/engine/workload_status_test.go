package engine

import (
	"context"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	"github.com/kueue-sim/kueue-sim/scheme"
)

// countingReader is a cache standing in for the informers: it serves a
// fixed copy of the Workload and counts reads.
type countingReader struct {
	client.Reader
	wl    *kueue.Workload
	err   error
	reads int
}

func (c *countingReader) Get(_ context.Context, _ client.ObjectKey, obj client.Object, _ ...client.GetOption) error {
	c.reads++
	if c.err != nil {
		return c.err
	}
	c.wl.DeepCopyInto(obj.(*kueue.Workload))
	return nil
}

func TestUpdateWorkloadStatusReadsTheCacheFirst(t *testing.T) {
	s, err := scheme.New()
	if err != nil {
		t.Fatal(err)
	}
	key := client.ObjectKey{Namespace: "team-a", Name: "wl"}
	for name, tc := range map[string]struct {
		cache        func(current *kueue.Workload) *countingReader
		wantAPIReads int
	}{
		"a current cache: no read from the API server": {
			cache:        func(cur *kueue.Workload) *countingReader { return &countingReader{wl: cur.DeepCopy()} },
			wantAPIReads: 0,
		},
		"a stale cache: the update conflicts, the retry reads the API server": {
			cache: func(cur *kueue.Workload) *countingReader {
				stale := cur.DeepCopy()
				stale.ResourceVersion = "1"
				return &countingReader{wl: stale}
			},
			wantAPIReads: 1,
		},
		"a cache without it: read the API server": {
			cache: func(*kueue.Workload) *countingReader {
				return &countingReader{err: apierrors.NewNotFound(schema.GroupResource{Resource: "workloads"}, "wl")}
			},
			wantAPIReads: 1,
		},
		"no cache": {wantAPIReads: 1},
	} {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			apiReads := 0
			c := fake.NewClientBuilder().WithScheme(s).
				WithObjects(&kueue.Workload{ObjectMeta: metav1.ObjectMeta{Name: key.Name, Namespace: key.Namespace}}).
				WithStatusSubresource(&kueue.Workload{}).
				WithInterceptorFuncs(interceptor.Funcs{Get: func(ctx context.Context, c client.WithWatch, k client.ObjectKey, o client.Object, opts ...client.GetOption) error {
					apiReads++
					return c.Get(ctx, k, o, opts...)
				}}).Build()
			// Kueue writes the status in between: the API server's
			// Workload is ahead of version 1.
			var cur kueue.Workload
			if err := c.Get(ctx, key, &cur); err != nil {
				t.Fatal(err)
			}
			cur.Status.Conditions = []metav1.Condition{{Type: "Kueue", Status: metav1.ConditionTrue, Reason: "R", LastTransitionTime: metav1.Now()}}
			if err := c.Status().Update(ctx, &cur); err != nil {
				t.Fatal(err)
			}
			if err := c.Get(ctx, key, &cur); err != nil {
				t.Fatal(err)
			}
			apiReads = 0
			var cache client.Reader
			if tc.cache != nil {
				cache = tc.cache(&cur)
			}
			err := updateWorkloadStatus(ctx, cache, c, key, func(wl *kueue.Workload) bool {
				wl.Status.Conditions = append(wl.Status.Conditions, metav1.Condition{Type: kueue.WorkloadFinished, Status: metav1.ConditionTrue, Reason: "Succeeded", LastTransitionTime: metav1.Now()})
				return true
			})
			if err != nil {
				t.Fatal(err)
			}
			if apiReads != tc.wantAPIReads {
				t.Errorf("read the API server %d times, want %d", apiReads, tc.wantAPIReads)
			}
			var after kueue.Workload
			if err := c.Get(ctx, key, &after); err != nil {
				t.Fatal(err)
			}
			if len(after.Status.Conditions) != 2 {
				t.Errorf("conditions after the update: %v, want Kueue's and Finished", after.Status.Conditions)
			}
		})
	}
}

func TestUpdateWorkloadStatusSkipsWhatNeedsNoChange(t *testing.T) {
	s, err := scheme.New()
	if err != nil {
		t.Fatal(err)
	}
	key := client.ObjectKey{Namespace: "team-a", Name: "wl"}
	c := fake.NewClientBuilder().WithScheme(s).
		WithObjects(&kueue.Workload{ObjectMeta: metav1.ObjectMeta{Name: key.Name, Namespace: key.Namespace}}).
		WithStatusSubresource(&kueue.Workload{}).
		WithInterceptorFuncs(interceptor.Funcs{SubResourceUpdate: func(context.Context, client.Client, string, client.Object, ...client.SubResourceUpdateOption) error {
			t.Error("updated a Workload that needed no change")
			return nil
		}}).Build()
	if err := updateWorkloadStatus(context.Background(), nil, c, key, func(*kueue.Workload) bool { return false }); err != nil {
		t.Fatal(err)
	}
}
