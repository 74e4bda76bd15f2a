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
	"time"

	admissionv1 "k8s.io/api/admission/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	coordinationv1client "k8s.io/client-go/kubernetes/typed/coordination/v1"
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
// one running the controllers. A leader that cannot renew its Lease stops (the manager exits)
// before another replica can take it, so two replicas decide at once only if clocks drift by more
// than the Lease's slack (lease duration minus renew deadline).
type LeaseOwner struct {
	// Elected is closed once this replica leads (the manager's Elected()).
	Elected <-chan struct{}
	Leases  coordinationv1client.LeasesGetter
	// Namespace and Name locate the Lease; Self is this replica's identity in it.
	Namespace, Name, Self string
	// Now is the time source; nil means time.Now.
	Now func() time.Time

	mu     sync.Mutex
	holder string
	read   time.Time
}

// ownerRecheck bounds how long a replica forwards to the owner it last read before reading the
// Lease again.
const ownerRecheck = time.Second

// Deciding says this replica leads.
func (o *LeaseOwner) Deciding() bool {
	select {
	case <-o.Elected:
		return true
	default:
		return false
	}
}

// Owner reads the Lease (at most every ownerRecheck) and returns its holder's peer address.
func (o *LeaseOwner) Owner(ctx context.Context) (string, error) {
	now := time.Now
	if o.Now != nil {
		now = o.Now
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.holder == "" || now().Sub(o.read) > ownerRecheck {
		lease, err := o.Leases.Leases(o.Namespace).Get(ctx, o.Name, metav1.GetOptions{})
		if err != nil {
			return "", fmt.Errorf("reading the leader Lease %s/%s: %w", o.Namespace, o.Name, err)
		}
		o.holder, o.read = "", now()
		s := lease.Spec
		if s.HolderIdentity != nil && s.RenewTime != nil && s.LeaseDurationSeconds != nil &&
			now().Before(s.RenewTime.Add(time.Duration(*s.LeaseDurationSeconds)*time.Second)) {
			o.holder = *s.HolderIdentity
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
	answerErrored(w, body, errors.New("this replica no longer decides counters; retry"))
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
