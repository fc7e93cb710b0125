package settle

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	toolscache "k8s.io/client-go/tools/cache"
)

func TestSeenMarks(t *testing.T) {
	m := NewSeenMarks()
	if _, ok := m.Get("pods"); ok {
		t.Fatal("a resource nobody informs on is tracked")
	}
	pod := func(rv string) *corev1.Pod {
		return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "p", ResourceVersion: rv}}
	}
	for _, step := range []struct {
		obj  any
		want int64
	}{
		{pod("12"), 12},
		{pod("9"), 12}, // an older object (a resync) does not move the mark back
		{toolscache.DeletedFinalStateUnknown{Key: "ns/p", Obj: pod("15")}, 15},
		{pod(""), 15}, // no resourceVersion: ignored
		{"not an object", 15},
	} {
		m.Mark("pods", step.obj)
		if got, ok := m.Get("pods"); !ok || got != step.want {
			t.Errorf("after %v: seen = %d, %v; want %d", step.obj, got, ok, step.want)
		}
	}
}
