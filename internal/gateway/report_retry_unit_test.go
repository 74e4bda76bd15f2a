package gateway

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
)

func TestTransientReportFailures(t *testing.T) {
	gr := schema.GroupResource{Group: safetyv1alpha1.GroupVersion.Group, Resource: "agenttoolcalls"}
	for _, c := range []struct {
		name string
		err  error
		want bool
	}{
		{"unavailable", apierrors.NewServiceUnavailable("x"), true},
		{"too many requests (priority and fairness)", apierrors.NewTooManyRequests("x", 1), true},
		{"internal error", apierrors.NewInternalError(errors.New("x")), true},
		{"server timeout", apierrors.NewServerTimeout(gr, "patch", 1), true},
		{"timeout", apierrors.NewTimeoutError("x", 1), true},
		{"wrapped", fmt.Errorf("patching: %w", apierrors.NewServiceUnavailable("x")), true},
		{"not reached", errors.New("dial tcp 127.0.0.1:6443: connect: connection refused"), true},
		{"the call is gone", apierrors.NewNotFound(gr, "c"), false},
		{"refused", apierrors.NewInvalid(safetyv1alpha1.GroupVersion.WithKind("AgentToolCall").GroupKind(), "c", nil), false},
		{"forbidden", apierrors.NewForbidden(gr, "c", errors.New("x")), false},
		{"conflict", apierrors.NewConflict(gr, "c", errors.New("x")), false},
		{"the report's time is up", fmt.Errorf("patching: %w", context.DeadlineExceeded), false},
		{"canceled", context.Canceled, false},
	} {
		if got := transient(c.err); got != c.want {
			t.Errorf("%s: transient(%v) = %v, want %v", c.name, c.err, got, c.want)
		}
	}
}

func TestATurnHeldWhileWorkRunsPassesOnWhenItEnds(t *testing.T) {
	var m meteredTurns
	release, err := m.wait(t.Context(), "ns/plan")
	if err != nil {
		t.Fatal(err)
	}
	held := &turn{release: release}
	working, done := make(chan struct{}), make(chan struct{})
	held.holdWhile(func() { close(working); <-done })
	<-working
	held.end() // the call's own end: the turn stays with the work
	short, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	if _, err := m.wait(short, "ns/plan"); err == nil {
		t.Fatal("the plan's turn was passed on while the held report was still being tried")
	}
	close(done)
	next, err := m.wait(t.Context(), "ns/plan")
	if err != nil {
		t.Fatalf("the turn was not passed on once the work ended: %v", err)
	}
	next()
	(*turn)(nil).end() // a call that needs no turn
}

func TestRetryTransientTriesAgainOnlyWhatMaySucceed(t *testing.T) {
	gr := schema.GroupResource{Group: safetyv1alpha1.GroupVersion.Group, Resource: "agenttoolcalls"}
	tries := 0
	err := retryTransient(t.Context(), func(context.Context) error {
		if tries++; tries < 3 {
			return apierrors.NewTooManyRequests("slow down", 0)
		}
		return nil
	}, time.Millisecond)
	if err != nil || tries != 3 {
		t.Fatalf("after two 429s: %v in %d tries, want success in 3", err, tries)
	}
	tries = 0
	err = retryTransient(t.Context(), func(context.Context) error {
		tries++
		return apierrors.NewNotFound(gr, "c")
	}, time.Millisecond)
	if !apierrors.IsNotFound(err) || tries != 1 {
		t.Fatalf("a refusal: %v in %d tries, want it at once", err, tries)
	}
	short, cancel := context.WithTimeout(t.Context(), 20*time.Millisecond)
	defer cancel()
	err = retryTransient(short, func(context.Context) error { return apierrors.NewServiceUnavailable("down") }, time.Millisecond)
	if !apierrors.IsServiceUnavailable(err) {
		t.Fatalf("when the time is up: %v, want the last failure", err)
	}
}

func TestATurnIsPassedOnOnceHoweverOftenItEnds(t *testing.T) {
	var m meteredTurns
	release, err := m.wait(t.Context(), "ns/plan")
	if err != nil {
		t.Fatal(err)
	}
	held := &turn{release: release}
	held.pass()
	held.pass() // a second release would block on the empty token, and leave users counted wrong
	next, err := m.wait(t.Context(), "ns/plan")
	if err != nil {
		t.Fatal(err)
	}
	next()
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.byPlan) != 0 {
		t.Fatalf("entries left behind: %v", m.byPlan)
	}
}
