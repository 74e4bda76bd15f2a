package audit

import (
	"context"
	"errors"
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	logf "sigs.k8s.io/controller-runtime/pkg/log"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	ac "github.com/toolgate/toolgate/api/v1alpha1/applyconfiguration/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/ledger"
	"github.com/toolgate/toolgate/internal/metrics"
)

// DefaultPublishEvery is how often a HeadPublisher publishes its writer's signed head.
const DefaultPublishEvery = 10 * time.Second

// HeadPublisher publishes its journal's newest signed head, and the public key, in the
// AuditLedger's status: outside the volume, where a writer who alters the volume cannot reach.
// Every replica runs one for its own writer (no leader election). Each writer applies only its
// own entry of status.signedHeads (server-side apply, one field manager per writer), so writers
// never overwrite one another and the AuditLedger controller's status patches leave them alone.
// A status write happens only when the head changed, at most once per Every.
type HeadPublisher struct {
	Client  client.Client
	Journal *ledger.Journal
	// Every is the publishing interval; 0 means DefaultPublishEvery.
	Every time.Duration

	last ledger.SignedHead
	// checked is set once the head this writer published earlier is found on its journal's
	// chain (or there is none); until then each publication checks again (checkPublished).
	checked bool
	// refused is the published head found not on the chain, until its entry is marked
	// notOnChainSince (marking it may fail; this keeps the refusal meanwhile).
	refused *safetyv1alpha1.LedgerSignedHead
	// Now is the clock of the mark; nil means time.Now.
	Now func() time.Time
	// nowhere is set while there is no AuditLedger to publish into (noLedger).
	nowhere bool
}

// ErrNoAuditLedger is what Unpublished reports while the AuditLedger the heads are published
// into does not exist.
var ErrNoAuditLedger = fmt.Errorf("no AuditLedger %s to publish the signed heads into: nothing outside the volume "+
	"anchors the ledger, so records cut from its end are not detected; create it (config/default and the Helm chart "+
	"install one, config/samples/auditledger.yaml)", LedgerName)

// Unpublished is ErrNoAuditLedger while the publisher's last try found no AuditLedger, else nil.
func (p *HeadPublisher) Unpublished() error {
	if p.nowhere {
		return ErrNoAuditLedger
	}
	return nil
}

// noLedger records whether the last try found the AuditLedger missing: the first time, it says
// so in the log (publishing is otherwise silent, and a missing AuditLedger is not an error of the
// publisher: it tries again every Every), and again when heads are published after all; the gauge
// toolgate_ledger_heads_unpublished is 1 meanwhile.
func (p *HeadPublisher) noLedger(ctx context.Context, missing bool, h ledger.SignedHead) {
	if missing == p.nowhere {
		return
	}
	p.nowhere = missing
	log := logf.FromContext(ctx).WithName("ledger-heads")
	if missing {
		metrics.LedgerHeadsUnpublished.Set(1)
		log.Error(ErrNoAuditLedger, "The signed heads are not published", "writer", h.Writer, "seq", h.Seq)
		return
	}
	metrics.LedgerHeadsUnpublished.Set(0)
	log.Info("AuditLedger found: the signed heads are published again", "writer", h.Writer, "seq", h.Seq)
}

// NeedLeaderElection is false: every writer publishes its own head.
func (p *HeadPublisher) NeedLeaderElection() bool { return false }

// Start publishes until ctx ends, and once more on the way out (the journal signs its final
// head on Close, but the status write must happen while the client still works).
func (p *HeadPublisher) Start(ctx context.Context) error {
	every := p.Every
	if every == 0 {
		every = DefaultPublishEvery
	}
	t := time.NewTicker(every)
	defer t.Stop()
	log := logf.FromContext(ctx).WithName("ledger-heads")
	for {
		select {
		case <-ctx.Done():
			final, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
			defer cancel()
			if err := p.Publish(final); err != nil {
				log.Error(err, "Cannot publish the final signed head")
			}
			return nil
		case <-t.C:
			if err := p.Publish(ctx); err != nil {
				log.Error(err, "Cannot publish the signed head; retrying", "every", every)
			}
		}
	}
}

// Publish signs the journal's head now and applies it to the AuditLedger's status if it changed.
// Without an AuditLedger there is nowhere to publish: it returns nil and tries again next time,
// having logged it once and set the gauge toolgate_ledger_heads_unpublished (Unpublished says so).
func (p *HeadPublisher) Publish(ctx context.Context) error {
	h, ok, err := p.Journal.SignHead()
	if !ok {
		return err // no key or no record yet: nothing to publish
	}
	if h == p.last {
		return nil
	}
	if err := p.checkPublished(ctx); err != nil {
		return err
	}
	pem, err := ledger.EncodePublicKey(p.Journal.PublicKey())
	if err != nil {
		return err
	}
	status := ac.AuditLedgerStatus().
		WithSigningKey(ac.LedgerSigningKey().WithKeyID(h.KeyID).WithPublicKey(string(pem))).
		WithSignedHeads(SignedHeadApply(h))
	obj := ac.AuditLedger(LedgerName).WithStatus(status)
	err = p.Client.Status().Apply(ctx, obj, client.FieldOwner(fieldOwner(h.Writer)), client.ForceOwnership)
	if apierrors.IsNotFound(err) {
		p.noLedger(ctx, true, h)
		return nil
	}
	if err != nil {
		return fmt.Errorf("publishing the signed head of writer %s at seq %d: %w", h.Writer, h.Seq, err)
	}
	p.noLedger(ctx, false, h)
	p.last = h
	return nil
}

// checkPublished makes sure, before this writer's first publication, that the head it published
// earlier (a previous process of the same writer: a restarted container keeps its pod name) is on
// its journal's chain. If it is not, the volume was rolled back or rewritten under the writer, and
// publishing the new head would replace the one anchor that shows it: the writer publishes nothing,
// and says why at each try, until a person who has looked removes the entry (docs/ledger.md),
// which the next try sees. The API server refuses a lower seq too (the CRD's transition rule).
//
// The refusal is kept in the entry itself (notOnChainSince), not in this process: a restarted
// writer, or one whose retention has by then deleted the segments that showed the head missing,
// still refuses, the AuditLedger controller shows it (HeadsOnChain False) and retention keeps the
// entry; the CRD lets no one clear the mark but by removing the entry.
func (p *HeadPublisher) checkPublished(ctx context.Context) error {
	if p.checked {
		return nil
	}
	al := &safetyv1alpha1.AuditLedger{}
	if err := p.Client.Get(ctx, client.ObjectKey{Name: LedgerName}, al); err != nil {
		return client.IgnoreNotFound(err)
	}
	writer := p.Journal.Writer()
	for _, e := range al.Status.SignedHeads {
		if e.Writer != writer || e.Seq < 1 {
			continue
		}
		if e.NotOnChainSince != nil {
			return notOnChain(e)
		}
		if r := p.refused; r == nil || r.Seq != e.Seq || r.Hash != e.Hash {
			held, err := p.Journal.Holds(ledger.SignedHead{Writer: e.Writer, Seq: uint64(e.Seq), Hash: e.Hash, Segment: e.Segment})
			if err != nil {
				return fmt.Errorf("checking the published head of writer %s at seq %d against the journal: %w", writer, e.Seq, err)
			}
			if held {
				continue
			}
			p.refused = e.DeepCopy()
		}
		if err := p.markNotOnChain(ctx, e); err != nil {
			return fmt.Errorf("%w; marking it notOnChainSince: %w", notOnChain(e), err)
		}
		return notOnChain(e)
	}
	p.checked, p.refused = true, nil
	return nil
}

// markNotOnChain applies the writer's entry e as it is, with notOnChainSince now, under the
// writer's own field manager.
func (p *HeadPublisher) markNotOnChain(ctx context.Context, e safetyv1alpha1.LedgerSignedHead) error {
	now := time.Now
	if p.Now != nil {
		now = p.Now
	}
	entry := ac.LedgerSignedHead().WithWriter(e.Writer).WithSeq(e.Seq).WithHash(e.Hash).WithSegment(e.Segment).
		WithSignedAt(e.SignedAt).WithKeyID(e.KeyID).WithSignature(e.Signature).
		WithNotOnChainSince(metav1.NewTime(now().UTC().Truncate(time.Second)))
	obj := ac.AuditLedger(LedgerName).WithStatus(ac.AuditLedgerStatus().WithSignedHeads(entry))
	return p.Client.Status().Apply(ctx, obj, client.FieldOwner(fieldOwner(e.Writer)), client.ForceOwnership)
}

// notOnChain is the refusal to publish over a head the writer's chain no longer holds.
func notOnChain(e safetyv1alpha1.LedgerSignedHead) error {
	return fmt.Errorf("writer %s published seq %d (hash %s, segment %s) on %s, which its ledger volume no longer holds: "+
		"the volume was rolled back or rewritten; the published head is kept as the evidence and no newer head is published",
		e.Writer, e.Seq, e.Hash, e.Segment, e.SignedAt.UTC().Format(time.RFC3339))
}

// SignedHeadApply is h as a status entry.
func SignedHeadApply(h ledger.SignedHead) *ac.LedgerSignedHeadApplyConfiguration {
	return ac.LedgerSignedHead().WithWriter(h.Writer).WithSeq(int64(h.Seq)).WithHash(h.Hash).WithSegment(h.Segment).
		WithSignedAt(metav1.NewTime(h.SignedAt)).WithKeyID(h.KeyID).WithSignature(h.Signature)
}

// PublishedHeads converts an AuditLedger's published heads for ledger.VerifyWith.
func PublishedHeads(st safetyv1alpha1.AuditLedgerStatus) ([]ledger.SignedHead, error) {
	out := make([]ledger.SignedHead, 0, len(st.SignedHeads))
	for i, h := range st.SignedHeads {
		if h.Seq < 1 {
			return nil, fmt.Errorf("status.signedHeads[%d].seq: %d, want at least 1", i, h.Seq)
		}
		head := ledger.SignedHead{Writer: h.Writer, Seq: uint64(h.Seq), Hash: h.Hash, Segment: h.Segment,
			SignedAt: h.SignedAt.UTC(), KeyID: h.KeyID, Signature: h.Signature}
		if h.NotOnChainSince != nil {
			head.NotOnChainSince = h.NotOnChainSince.UTC()
		}
		out = append(out, head)
	}
	if len(out) == 0 {
		return nil, errors.New("status.signedHeads is empty: no writer has published a signed head")
	}
	return out, nil
}
