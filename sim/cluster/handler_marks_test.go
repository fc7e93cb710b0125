package cluster

import (
	"context"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	toolscache "k8s.io/client-go/tools/cache"
	fcache "k8s.io/client-go/tools/cache/testing"
)

// An informer made by handlerMarks is lagging while one of its handlers
// has not returned from an event another has, and level again once it
// has; a handler added later starts level with the others.
func TestHandlerMarksLagging(t *testing.T) {
	var h handlerMarks
	src := fcache.NewFakeControllerSource()
	inf := h.newInformer(src, &corev1.Pod{}, 0, toolscache.Indexers{})
	release := make(chan struct{})
	handled := make(chan struct{}, 10)
	if _, err := inf.AddEventHandler(toolscache.ResourceEventHandlerFuncs{AddFunc: func(any) { handled <- struct{}{} }}); err != nil {
		t.Fatal(err)
	}
	if _, err := inf.AddEventHandler(toolscache.ResourceEventHandlerFuncs{AddFunc: func(any) { <-release }}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go inf.RunWithContext(ctx)
	if !toolscache.WaitForCacheSync(ctx.Done(), inf.HasSynced) {
		t.Fatal("informer did not sync")
	}
	if got := h.lagging(); got != "" {
		t.Fatalf("lagging before any event: %q", got)
	}

	src.Add(&corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "ns"}})
	<-handled
	if got := h.lagging(); got != "Pod (a handler behind another)" {
		t.Errorf("a handler still in the event: lagging %q, want the Pod informer", got)
	}
	close(release)
	waitFor(t, func() bool { return h.lagging() == "" })

	if _, err := inf.AddEventHandler(toolscache.ResourceEventHandlerFuncs{}); err != nil {
		t.Fatal(err)
	}
	if got := h.lagging(); got != "" {
		t.Errorf("a handler added late: lagging %q", got)
	}
}

// A handler behind the same resourceVersion for stuckAfter no longer
// counts as lagging.
func TestHandlerMarksStuckHandler(t *testing.T) {
	i := &markingInformer{kind: "Pod"}
	m := i.mark(toolscache.ResourceEventHandlerFuncs{})
	i.handlers = map[toolscache.ResourceEventHandlerRegistration]*markedHandler{nil: m}
	i.highest.Store(5)
	if !i.lagging() {
		t.Fatal("a handler behind: not lagging")
	}
	m.behindSince = time.Now().Add(-stuckAfter)
	if i.lagging() {
		t.Error("a handler stuck behind for stuckAfter: still lagging")
	}
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); {
		if time.Now().After(deadline) {
			t.Fatal("condition not met in 10s")
		}
		time.Sleep(time.Millisecond)
	}
}
