package controller

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/policy"
)

// legacySweepPage is how many calls' metadata one page of the sweep reads.
const legacySweepPage = 500

// LegacyFinalizerSweep removes from AgentToolCalls the finalizers toolgate put on calls before
// usage was counted at admission (safety.toolgate.dev/usage): nothing else releases them any
// more, so a call stored by an earlier release could otherwise never be deleted. The call's usage
// is already in its plan's counters, which is all the finalizer waited for.
//
// It is a sweep, not a controller: the manager watches finished calls only (FinishedCalls), and
// only an earlier release's plan controller added these finalizers, on its leader. So the leader
// of this release reads every call's metadata once when it starts leading (no earlier leader runs
// after that) and again every Every, for a restore from an old backup; each call that carries one
// costs one write, once.
type LegacyFinalizerSweep struct {
	client.Client
	// Reader lists the calls' metadata from the API server, a page at a time.
	Reader client.Reader
	// Every is the time between sweeps; zero means an hour.
	Every time.Duration
}

// NeedLeaderElection is true: one replica sweeps.
func (s *LegacyFinalizerSweep) NeedLeaderElection() bool { return true }

// Start sweeps now and then every s.Every until ctx ends. After a sweep that could not release
// every call it waits 10 s, doubling after each such sweep up to s.Every.
func (s *LegacyFinalizerSweep) Start(ctx context.Context) error {
	log := ctrl.LoggerFrom(ctx).WithName("legacy-finalizers")
	every := s.Every
	if every <= 0 {
		every = time.Hour
	}
	retry := 10 * time.Second
	for {
		next := every
		if n, err := s.Sweep(ctx); err != nil {
			log.Error(err, "Releasing earlier releases' finalizers", "released", n, "again in", retry)
			next, retry = retry, min(2*retry, every)
		} else {
			retry = 10 * time.Second
			if n > 0 {
				log.Info("Released earlier releases' finalizers", "calls", n)
			}
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(next):
		}
	}
}

// Sweep releases toolgate's own finalizers from every call that carries one, keeping everyone
// else's, and returns how many calls it released. A call it cannot release is skipped (and
// reported in the error) so that one call does not hold up the others.
func (s *LegacyFinalizerSweep) Sweep(ctx context.Context) (int, error) {
	released := 0
	var errs []error
	next := ""
	for {
		opts := []client.ListOption{client.Limit(legacySweepPage)}
		if next != "" {
			opts = append(opts, client.Continue(next))
		}
		list := &metav1.PartialObjectMetadataList{}
		list.SetGroupVersionKind(safetyv1alpha1.GroupVersion.WithKind("AgentToolCallList"))
		if err := s.Reader.List(ctx, list, opts...); err != nil {
			return released, errors.Join(append(errs, fmt.Errorf("listing AgentToolCalls: %w", err))...)
		}
		for i := range list.Items {
			switch done, err := s.release(ctx, &list.Items[i]); {
			case err != nil:
				errs = append(errs, err)
			case done:
				released++
			}
		}
		if next = list.Continue; next == "" {
			return released, errors.Join(errs...)
		}
	}
}

// releaseAttempts bounds the re-reads of a call that changes while its finalizer is released.
const releaseAttempts = 3

// release removes toolgate's own finalizers from call, and says whether it did. A call that
// changed since it was read (every page of a list is as of its first) is read again: the
// optimistic lock keeps a finalizer someone else added meanwhile.
func (s *LegacyFinalizerSweep) release(ctx context.Context, call *metav1.PartialObjectMetadata) (bool, error) {
	for attempt := 1; ; attempt++ {
		call.SetGroupVersionKind(safetyv1alpha1.GroupVersion.WithKind("AgentToolCall"))
		if !slices.ContainsFunc(call.Finalizers, policy.IsOwnCallFinalizer) {
			return false, nil
		}
		base := call.DeepCopy()
		call.Finalizers = slices.DeleteFunc(call.Finalizers, policy.IsOwnCallFinalizer)
		err := s.Patch(ctx, call, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{}))
		switch {
		case err == nil:
			return true, nil
		case apierrors.IsNotFound(err):
			return false, nil
		case !apierrors.IsConflict(err) || attempt == releaseAttempts:
			return false, fmt.Errorf("releasing the finalizers of AgentToolCall %s/%s: %w", call.Namespace, call.Name, err)
		}
		if err := s.Reader.Get(ctx, client.ObjectKeyFromObject(call), call); err != nil {
			if apierrors.IsNotFound(err) {
				return false, nil
			}
			return false, fmt.Errorf("reading AgentToolCall %s/%s again: %w", call.Namespace, call.Name, err)
		}
	}
}
