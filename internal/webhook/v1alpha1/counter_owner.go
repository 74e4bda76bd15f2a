package v1alpha1

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	admissionv1 "k8s.io/api/admission/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	coordinationv1client "k8s.io/client-go/kubernetes/typed/coordination/v1"
	"k8s.io/client-go/tools/leaderelection/resourcelock"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"
)

// CounterOwner says which replica decides plans' counters: exactly one at a time does
// (usageCommitter), and the others forward their AgentToolCall reviews to it.
type CounterOwner interface {
	// Deciding says this replica decides counters now.
	Deciding() bool
	// Owner is the peer address (host:port) of the replica that does.
	Owner(ctx context.Context) (string, error)
}

// PeerIdentity is the leader election identity of a replica whose peer listener is at addr: the
// Lease that elects the leader then also says where it is.
func PeerIdentity(id, addr string) string { return id + "@" + addr }

// LeaseOwner makes the holder of the manager's leader Lease the replica that decides counters: the
// one running the controllers. The leader decides only while its last renewal of the Lease is
// younger than DecideWithin, by its own clock, and another replica takes the Lease only once it
// has seen it unrenewed for the lease duration (15 s) by its own: two replicas decide at once
// only if one clock runs more than that slack (5 s in 15) fast against the other.
type LeaseOwner struct {
	// Elected is closed once this replica leads (the manager's Elected()).
	Elected <-chan struct{}
	// Renewals are this replica's successful writes of the Lease; nil trusts Elected alone.
	Renewals *RenewalTracker
	Leases   coordinationv1client.LeasesGetter
	// Namespace and Name locate the Lease; Self is this replica's identity in it.
	Namespace, Name, Self string

	mu sync.Mutex
	// holder, record and seen: the Lease as last read, and when (by this replica's clock) its
	// holder or renew time last changed, as client-go's leader election judges expiry.
	holder, record string
	read, seen     time.Time
}

// DecideWithin is how recent the leader's last renewal must be for it to decide: the renew
// deadline, after which controller-runtime's leader election gives the Lease up.
const DecideWithin = 10 * time.Second

// RenewalTracker wraps the leader election lock and notes when this replica last wrote the Lease
// (acquired or renewed it).
type RenewalTracker struct {
	resourcelock.Interface
	last atomic.Int64 // nanoseconds since processStart, on the monotonic clock
	// term counts this replica's unbroken holdings of the Lease: it grows at a write that follows
	// the previous one by DecideWithin or more (or none), after which another replica may have
	// decided in between.
	term atomic.Uint64
}

// TrackRenewals wraps lock.
func TrackRenewals(lock resourcelock.Interface) *RenewalTracker {
	return &RenewalTracker{Interface: lock}
}

// Create notes a successful acquisition.
func (t *RenewalTracker) Create(ctx context.Context, r resourcelock.LeaderElectionRecord) error {
	err := t.Interface.Create(ctx, r)
	if err == nil {
		t.noteWrite()
	}
	return err
}

// Update notes a successful renewal.
func (t *RenewalTracker) Update(ctx context.Context, r resourcelock.LeaderElectionRecord) error {
	err := t.Interface.Update(ctx, r)
	if err == nil {
		t.noteWrite()
	}
	return err
}

// processStart anchors the renewal times to the monotonic clock: a step of the wall clock must
// neither hide a gap in the renewals nor stretch their freshness.
var processStart = time.Now()

func (t *RenewalTracker) noteWrite() {
	now := int64(time.Since(processStart)) + 1 // never 0, which means no write yet
	if prev := t.last.Swap(now); prev == 0 || time.Duration(now-prev) >= DecideWithin {
		t.term.Add(1)
	}
}

// fresh says the last write is younger than within.
func (t *RenewalTracker) fresh(now time.Time, within time.Duration) bool {
	last := t.last.Load()
	return last != 0 && now.Sub(processStart)-time.Duration(last-1) < within
}

// ownerRecheck bounds how long a replica forwards to the owner it last read before reading the
// Lease again.
const ownerRecheck = time.Second

// Deciding says this replica leads, and renewed its Lease recently enough to be sure no other
// replica can have taken it.
func (o *LeaseOwner) Deciding() bool {
	select {
	case <-o.Elected:
		return o.Renewals == nil || o.Renewals.fresh(time.Now(), DecideWithin)
	default:
		return false
	}
}

// Term names this replica's current unbroken holding of the Lease: counters it stored in a term
// are still exactly what was counted while the term lasts, since no other replica decided.
func (o *LeaseOwner) Term() uint64 {
	if o.Renewals == nil {
		return 0 // elected once: controller-runtime stops the process when it loses the Lease
	}
	return o.Renewals.term.Load()
}

// Owner reads the Lease (at most every ownerRecheck) and returns its holder's peer address.
func (o *LeaseOwner) Owner(ctx context.Context) (string, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	// Also an empty Lease is believed for ownerRecheck: during a takeover every forwarded review
	// would otherwise read it again.
	if o.read.IsZero() || time.Since(o.read) > ownerRecheck {
		lease, err := o.Leases.Leases(o.Namespace).Get(ctx, o.Name, metav1.GetOptions{})
		if err != nil {
			return "", fmt.Errorf("reading the leader Lease %s/%s: %w", o.Namespace, o.Name, err)
		}
		o.read = time.Now()
		s := lease.Spec
		o.holder = ""
		if s.HolderIdentity != nil && s.RenewTime != nil && s.LeaseDurationSeconds != nil {
			// Expiry by this replica's clock: the time since it saw the record change.
			if record := *s.HolderIdentity + " " + s.RenewTime.String(); record != o.record {
				o.record, o.seen = record, o.read
			}
			if o.read.Sub(o.seen) < time.Duration(*s.LeaseDurationSeconds)*time.Second {
				o.holder = *s.HolderIdentity
			}
		}
	}
	switch i := strings.LastIndex(o.holder, "@"); {
	case o.holder == "":
		return "", errors.New("no replica holds the leader Lease now (one is taking over)")
	case o.holder == o.Self:
		return "", errors.New("this replica is taking over the leader Lease")
	case i < 0 || i == len(o.holder)-1:
		return "", fmt.Errorf("the leader Lease's holder %q names no peer address", o.holder)
	default:
		return o.holder[i+1:], nil
	}
}

// maxReviewBytes bounds a forwarded review; the API server sends far less (an AgentToolCall is
// bounded by its schema).
const maxReviewBytes = 8 << 20

// forwarder serves AgentToolCall reviews on the replica that decides counters and forwards them
// to it from every other: the owner answers as if the API server had asked it, and its answer is
// returned as is. When the owner cannot be reached the call is refused, retryably: counting
// without it could admit a step's last attempt twice.
type forwarder struct {
	local  http.Handler
	owner  CounterOwner
	client *http.Client
	path   string
}

func (f *forwarder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if f.owner.Deciding() {
		f.local.ServeHTTP(w, r)
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxReviewBytes+1))
	if err != nil || len(body) > maxReviewBytes {
		http.Error(w, "the admission review cannot be read", http.StatusBadRequest)
		return
	}
	addr, err := f.owner.Owner(r.Context())
	if err == nil {
		if err = f.forward(r.Context(), w, addr, body); err == nil {
			return
		}
	}
	answerErrored(w, body, fmt.Errorf("the replica that decides counters cannot answer now, retry: %w", err))
}

func (f *forwarder) forward(ctx context.Context, w http.ResponseWriter, addr string, body []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "https://"+addr+f.path, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := f.client.Do(req)
	if err != nil {
		return err
	}
	defer func() { _ = resp.Body.Close() }()
	answer, err := io.ReadAll(io.LimitReader(resp.Body, maxReviewBytes+1))
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK || len(answer) > maxReviewBytes {
		return fmt.Errorf("replica %s answered HTTP %d", addr, resp.StatusCode)
	}
	w.Header().Set("Content-Type", "application/json")
	_, err = w.Write(answer)
	return err
}

// decidingOnly serves forwarded reviews only while this replica decides counters: one that lost
// the Lease between the sender's read of it and now refuses, retryably, rather than decide beside
// the new owner.
type decidingOnly struct {
	local http.Handler
	owner CounterOwner
}

func (d *decidingOnly) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if d.owner.Deciding() {
		d.local.ServeHTTP(w, r)
		return
	}
	body, _ := io.ReadAll(io.LimitReader(r.Body, maxReviewBytes))
	answerErrored(w, body, errNotDeciding)
}

// answerErrored answers the review in body with err, as the API server expects an answer.
func answerErrored(w http.ResponseWriter, body []byte, err error) {
	review := admissionv1.AdmissionReview{}
	if json.Unmarshal(body, &review) != nil || review.Request == nil {
		http.Error(w, "not an admission review", http.StatusBadRequest)
		return
	}
	resp := admission.Errored(http.StatusServiceUnavailable, err)
	resp.UID = review.Request.UID
	out := admissionv1.AdmissionReview{TypeMeta: review.TypeMeta, Response: &resp.AdmissionResponse}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(&out)
}
