package v1alpha1

import (
	"context"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/audit"
	"github.com/toolgate/toolgate/internal/metrics"
)

// recorded wraps a configuration kind's validator: a request it admits is a config record in the
// ledger before the answer (audit.ConfigChange). A dry run is validated but not recorded: nothing
// changes. A record that cannot be made durable refuses the change LedgerUnavailable, unless the
// AuditLedger's failurePolicy is Ignore or the change is of the AuditLedger itself. The record
// says toolgate admitted the request; the stored object's generation and uid, both in the
// record, show that the API server kept it.
type recorded[T client.Object] struct {
	inner  admission.Validator[T]
	log    audit.ConfigLog
	reader client.Reader // the AuditLedger's failure policy
}

func withConfigRecord[T client.Object](inner admission.Validator[T], log audit.ConfigLog, reader client.Reader) admission.Validator[T] {
	if log == nil {
		return inner
	}
	return recorded[T]{inner: inner, log: log, reader: reader}
}

func (v recorded[T]) ValidateCreate(ctx context.Context, obj T) (admission.Warnings, error) {
	w, err := v.inner.ValidateCreate(ctx, obj)
	if err != nil {
		return w, err
	}
	return w, v.record(ctx, audit.ConfigCreate, obj, nil)
}

func (v recorded[T]) ValidateUpdate(ctx context.Context, old, obj T) (admission.Warnings, error) {
	w, err := v.inner.ValidateUpdate(ctx, old, obj)
	if err != nil {
		return w, err
	}
	return w, v.record(ctx, audit.ConfigUpdate, obj, old)
}

func (v recorded[T]) ValidateDelete(ctx context.Context, obj T) (admission.Warnings, error) {
	w, err := v.inner.ValidateDelete(ctx, obj)
	if err != nil {
		return w, err
	}
	return w, v.record(ctx, audit.ConfigDelete, obj, nil)
}

func (v recorded[T]) record(ctx context.Context, op string, obj, old client.Object) error {
	req, err := admission.RequestFromContext(ctx)
	if err != nil {
		return apierrors.NewInternalError(err)
	}
	if d := recordConfig(ctx, v.log, v.reader, req, op, obj, old); d != nil {
		return apierrors.FromObject(d.response().Result)
	}
	return nil
}

// recordConfig writes the config record of an admitted request and returns the refusal to give
// instead, or nil. An update that changes neither the spec nor toolgate's own annotations (the
// controllers' finalizers and owner references) is no configuration change and is not recorded.
func recordConfig(ctx context.Context, log audit.ConfigLog, reader client.Reader, req admission.Request,
	op string, obj, old client.Object) *denial {
	if log == nil || isDryRun(req) {
		return nil
	}
	c, err := audit.ConfigChangeOf(op, obj, req.UserInfo.Username)
	if err == nil && old != nil {
		var was audit.ConfigChange
		if was, err = audit.ConfigChangeOf(op, old, req.UserInfo.Username); err == nil && !c.Changed(was) {
			return nil
		}
	}
	if err == nil {
		err = log.RecordConfig(ctx, c)
	}
	if err == nil {
		return nil
	}
	metrics.LedgerFailures.Inc()
	// The AuditLedger is how a full or failing ledger is repaired (retention, failurePolicy):
	// refusing its changes because the ledger fails would lock the repair out. Its change joins
	// the loss account instead (audit.Log), like any record under Ignore.
	if _, repair := obj.(*safetyv1alpha1.AuditLedger); repair ||
		audit.FailurePolicyOf(ctx, reader) == safetyv1alpha1.LedgerFailurePolicyIgnore {
		return nil
	}
	return &denial{ReasonLedgerUnavailable, "", "the change could not be recorded durably, so it is not admitted: " + err.Error()}
}
