package audit

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"
	"unicode/utf8"

	"sigs.k8s.io/controller-runtime/pkg/client"
	logf "sigs.k8s.io/controller-runtime/pkg/log"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/ledger"
)

// KindFlood is the ledger record kind that aggregates one window of rate-limited denials.
const KindFlood = "flood"

// Field names of flood records.
const (
	floodFieldReason    = "reason"
	floodFieldRequester = "requester"
	floodFieldPod       = "pod"
)

// Flood control defaults, as the AuditLedger CRD defaults them.
const (
	DefaultDeniedPerWindow = 60
	DefaultFloodWindow     = time.Minute
	// DefaultDeniedBytesPerMinute is the byte budget of a requester's denial records per minute
	// of window, as the CRD defaults spec.floodControl.deniedBytesPerMinute (64 KiB: one maximal
	// denial, ~60 KB with its arguments, or dozens of ordinary ones). Once a window's records
	// reach it, further denials are refused RateLimited and counted in the flood record, so a
	// flood of large denials costs about this much per window, not DeniedPerWindow maximal
	// records (~3.6 MB). docs/ledger.md, "Flood control", gives how long the default volume lasts
	// under the worst flood.
	DefaultDeniedBytesPerMinute = 64 << 10
	// maxFloodReasons bounds the reasons one flood record counts; the rest count as "other".
	maxFloodReasons = 16
	// maxFloodWindows bounds the requesters tracked at once. Requesters are authenticated
	// identities, so this is never reached by one agent; past it, denials are recorded one by
	// one, as without flood control.
	maxFloodWindows = 100000
)

// FloodSettings are the flood control's limits. DeniedPerWindow 0 turns it off.
type FloodSettings struct {
	DeniedPerWindow int
	Window          time.Duration
	// DeniedBytesPerMinute is the byte budget of a window's denial records for each minute of
	// Window; 0 means DefaultDeniedBytesPerMinute. The first denial of a window is recorded
	// whatever its size.
	DeniedBytesPerMinute int64
}

// off says the settings turn flood control off: no count, or no window.
func (s FloodSettings) off() bool { return s.DeniedPerWindow <= 0 || s.Window <= 0 }

// bytesPerWindow is the window's byte budget.
func (s FloodSettings) bytesPerWindow() int64 {
	perMinute := s.DeniedBytesPerMinute
	if perMinute <= 0 {
		perMinute = DefaultDeniedBytesPerMinute
	}
	// In milliseconds: the CRD's largest budget (1 GiB) times its longest window (a day) in
	// nanoseconds would overflow.
	return max(1, perMinute*int64(s.Window/time.Millisecond)/int64(time.Minute/time.Millisecond))
}

// FloodSettingsOf reads the limits from an AuditLedger spec (nil: the defaults).
func FloodSettingsOf(spec *safetyv1alpha1.AuditLedgerSpec) FloodSettings {
	s := FloodSettings{DeniedPerWindow: DefaultDeniedPerWindow, Window: DefaultFloodWindow}
	if spec == nil {
		return s
	}
	if n := spec.FloodControl.DeniedPerWindow; n != nil {
		s.DeniedPerWindow = int(*n)
	}
	if w := spec.FloodControl.WindowSeconds; w > 0 {
		s.Window = time.Duration(w) * time.Second
	}
	s.DeniedBytesPerMinute = spec.FloodControl.DeniedBytesPerMinute
	return s
}

// FloodSettingsFrom reads the cluster's AuditLedger on each call (a cache read in the manager),
// so a changed spec applies to the next denial; without one, the defaults.
func FloodSettingsFrom(r client.Reader) func(context.Context) FloodSettings {
	return func(ctx context.Context) FloodSettings {
		al := &safetyv1alpha1.AuditLedger{}
		if err := r.Get(ctx, client.ObjectKey{Name: LedgerName}, al); err != nil {
			return FloodSettingsOf(nil)
		}
		return FloodSettingsOf(&al.Spec)
	}
}

// DeniedCall is what flood control knows of a denial.
type DeniedCall struct {
	Namespace string
	Requester string
	// Pod is the pod the requester's token is bound to (its pod-name claim) when a plan holds
	// that pod, empty otherwise: agents that share a ServiceAccount, each in its own pod and
	// plan, are limited one by one, so one's flood never turns another's denials into
	// RateLimited (which would take their reason, their approval hint and their record). A pod
	// no plan holds shares its ServiceAccount's window: pods are the agent's to create where
	// it may, plans are not, so the windows stay as many as the platform's plans.
	Pod    string
	Call   string
	Reason string
	// Bytes is what the denial's record is expected to take, at least its arguments' length
	// (ArgumentBytes): reserved against the window's byte budget until the record is written,
	// so concurrent denials cannot all pass before any is charged. 0 reserves nothing.
	Bytes int
}

// ArgumentBytes bounds what a call's denial record takes: its arguments as the record holds them,
// JSON-encoded (a byte the encoder escapes, a control character or '<', takes up to six; an
// invalid UTF-8 byte becomes the six of \ufffd), plus the part of the record the agent does not
// control (message, facts, tool, digests; denialRecordOverhead). The reservation must not be
// below the record, or denials sent at once all pass before any is charged.
func ArgumentBytes(a safetyv1alpha1.ToolArguments) int {
	n := denialRecordOverhead + encodedBytes(a.Command) + encodedBytes(a.Cwd) + encodedBytes(a.ProjectDir)
	for _, p := range a.Paths {
		n += encodedBytes(p)
	}
	if a.Extra != nil {
		n += encodedBytes(string(a.Extra.Raw))
	}
	return n
}

// denialRecordOverhead is the most a denial record takes besides its arguments: about 760 bytes
// measured, with room for a long message and names.
const denialRecordOverhead = 2 << 10

// encodedBytes is the most s takes as (part of) a JSON string: six bytes for a byte that is
// escaped as \u00XX or replaced by \ufffd, two for '"' and '\\', six for U+2028 and U+2029.
func encodedBytes(s string) int {
	n := 0
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c < utf8.RuneSelf:
			switch {
			case c < 0x20 || c == '<' || c == '>' || c == '&':
				n += 6
			case c == '"' || c == '\\':
				n += 2
			default:
				n++
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			n += 6
		case r == '\u2028' || r == '\u2029':
			n += 6
		default:
			n += size
		}
		i += size
	}
	return n
}

// FloodControl bounds what denied calls cost the ledger. Per requester (and its token's pod) and namespace, the
// first DeniedPerWindow denials of a window are recorded one by one as usual, as long as their
// records stay within the window's byte budget (the first is recorded whatever its size); later
// ones are refused RateLimited and counted in one "flood" record per window (count, first and last call,
// reasons), written once the window ends. So a flood costs bytes in proportion to windows, not
// requests, and one requester's flood never touches another's calls. Only denials are
// aggregated: every admitted call is still recorded, durably, before it is admitted. The price
// is that a crash loses the current window's count of refused (denied) calls.
type FloodControl struct {
	Log *Log
	// Settings returns the limits in force; nil means the defaults.
	Settings func(context.Context) FloodSettings
	// Clock stamps windows; nil means the wall clock.
	Clock ledger.Clock

	mu      sync.Mutex
	windows map[floodKey]*floodWindow
	ended   []*floodWindow
	// uncharged are the denials Refuse let through whose records the Log has not charged yet,
	// by namespace, requester, its token's pod and call name (so one pod's record is never
	// charged to another's window), with the window they count in and the bytes reserved.
	uncharged map[chargeKey]*reservation
}

type chargeKey struct{ namespace, requester, pod, call string }

type reservation struct {
	w    *floodWindow
	each []int64 // the bytes reserved for each denial under this key awaiting its charge, in order
}

type floodKey struct{ namespace, requester, pod string }

type floodWindow struct {
	key         floodKey
	start, end  time.Time
	denied      int   // denials in the window, recorded one by one or not
	bytes       int64 // bytes of the window's denial records, and reserved for those being written
	charges     []chargeKey
	refused     int
	first, last floodCall
	reasons     map[string]int
}

type floodCall struct {
	call, reason string
	at           time.Time
}

// Refuse counts a denial and reports whether it is over the rate. When it is, the caller
// answers RateLimited and does not record the denial itself: this window's flood record does.
func (f *FloodControl) Refuse(ctx context.Context, d DeniedCall) bool {
	s := f.settings(ctx)
	if s.off() {
		return false
	}
	now := f.now()
	f.mu.Lock()
	if f.windows == nil {
		f.windows = map[floodKey]*floodWindow{}
	}
	k := floodKey{d.Namespace, d.Requester, d.Pod}
	w := f.windows[k]
	if w != nil && !now.Before(w.end) {
		f.retire(w)
		w = nil
	}
	if w == nil {
		if len(f.windows) >= maxFloodWindows {
			f.mu.Unlock()
			return false
		}
		w = &floodWindow{key: k, start: now, end: now.Add(s.Window)}
		f.windows[k] = w
	}
	refuse := w.over(s, int64(d.Bytes))
	w.denied++
	if refuse {
		w.count(floodCall{call: d.Call, reason: d.Reason, at: now})
	} else {
		f.reserve(w, chargeKey{d.Namespace, d.Requester, d.Pod, d.Call}, int64(d.Bytes))
	}
	pending := len(f.ended) > 0
	f.mu.Unlock()
	f.Log.flood.CompareAndSwap(nil, f)
	if pending {
		// A flood record is evidence of refused calls: write it as soon as its window is over.
		// A failure is in the loss account (see Log) and the flusher retries the account.
		_ = f.Flush(ctx)
	}
	return refuse
}

// over says the window's next denial, of bytes, is past its rate: its count, or (after the first,
// which is recorded whatever its size) its byte budget.
func (w *floodWindow) over(s FloodSettings, bytes int64) bool {
	return w.denied >= s.DeniedPerWindow || w.denied > 0 && w.bytes+bytes > s.bytesPerWindow()
}

// Flooding says the requester's (and its token's pod's) next denial in namespace would be
// refused, whatever its size (Refuse), without counting anything. The webhook asks it before it
// reads the API server for a plan or tool its cache does not show: a requester past its rate is
// answered from the cache, so naming plans that do not exist moves no more reads onto the API
// server than the denials its window records.
func (f *FloodControl) Flooding(ctx context.Context, namespace, requester, pod string) bool {
	s := f.settings(ctx)
	if s.off() {
		return false
	}
	now := f.now()
	f.mu.Lock()
	defer f.mu.Unlock()
	w := f.windows[floodKey{namespace, requester, pod}]
	return w != nil && now.Before(w.end) && w.over(s, 0)
}

// reserve counts bytes against w for a denial about to be recorded; f.mu is held.
func (f *FloodControl) reserve(w *floodWindow, k chargeKey, bytes int64) {
	if f.uncharged == nil {
		f.uncharged = map[chargeKey]*reservation{}
	}
	r := f.uncharged[k]
	if r == nil || r.w != w {
		r = &reservation{w: w}
		f.uncharged[k] = r
		w.charges = append(w.charges, k)
	}
	r.each = append(r.each, bytes)
	w.bytes += bytes
}

// charge replaces the reservation of a denial the Log recorded by the bytes its record took (0
// when it was not written).
func (f *FloodControl) charge(namespace, requester, pod, call string, bytes int) {
	k := chargeKey{namespace, requester, pod, call}
	f.mu.Lock()
	defer f.mu.Unlock()
	r := f.uncharged[k]
	if r == nil {
		return
	}
	reserved := r.each[0]
	r.each = r.each[1:]
	r.w.bytes += int64(bytes) - reserved
	if len(r.each) == 0 {
		delete(f.uncharged, k)
	}
}

func (w *floodWindow) count(c floodCall) {
	if w.refused == 0 {
		w.first = c
	}
	w.refused++
	w.last = c
	if w.reasons == nil {
		w.reasons = map[string]int{}
	}
	r := c.reason
	if _, seen := w.reasons[r]; !seen && len(w.reasons) >= maxFloodReasons {
		r = "other"
	}
	w.reasons[r]++
}

// retire moves a window out of the table; one that refused calls waits for its record.
func (f *FloodControl) retire(w *floodWindow) {
	delete(f.windows, w.key)
	for _, k := range w.charges {
		if r := f.uncharged[k]; r != nil && r.w == w {
			delete(f.uncharged, k) // a charge after its window ended changes nothing
		}
	}
	if w.refused > 0 {
		f.ended = append(f.ended, w)
	}
}

// Flush records every window that has ended and refused calls, and forgets ended windows.
func (f *FloodControl) Flush(ctx context.Context) error {
	now := f.now()
	f.mu.Lock()
	for _, w := range f.windows {
		if !now.Before(w.end) {
			f.retire(w)
		}
	}
	ended := f.ended
	f.ended = nil
	f.mu.Unlock()
	slices.SortFunc(ended, func(a, b *floodWindow) int { return a.start.Compare(b.start) })
	var first error
	for _, w := range ended {
		if err := f.record(ctx, w); err != nil && first == nil {
			first = err
		}
	}
	return first
}

func (f *FloodControl) record(ctx context.Context, w *floodWindow) error {
	reasons := make(map[string]any, len(w.reasons))
	for _, r := range slices.Sorted(maps.Keys(w.reasons)) {
		reasons[r] = w.reasons[r]
	}
	fields := map[string]any{
		floodFieldReason: safetyv1alpha1.AuditLedgerRateLimitedReason, fieldNamespace: w.key.namespace, floodFieldRequester: w.key.requester,
		"windowStart": w.start.UTC(), "windowEnd": w.end.UTC(), "refused": w.refused, "denied": w.denied,
		"first":   map[string]any{fieldCall: w.first.call, floodFieldReason: w.first.reason, "time": w.first.at.UTC()},
		"last":    map[string]any{fieldCall: w.last.call, floodFieldReason: w.last.reason, "time": w.last.at.UTC()},
		"reasons": reasons,
	}
	ident := map[string]any{fieldNamespace: w.key.namespace, floodFieldRequester: w.key.requester, "refused": w.refused}
	if w.key.pod != "" {
		fields[floodFieldPod], ident[floodFieldPod] = w.key.pod, w.key.pod
	}
	if err := f.Log.append(ctx, ledger.Record{Kind: KindFlood, Time: w.end, Fields: fields}, identMap(ident)); err != nil {
		return fmt.Errorf("recording %d rate-limited denials of %s in %s: %w", w.refused, w.key.requester, w.key.namespace, err)
	}
	return nil
}

// NeedLeaderElection is false: every replica limits and records its own denials.
func (f *FloodControl) NeedLeaderElection() bool { return false }

// Start flushes ended windows every second until ctx ends, then once more.
func (f *FloodControl) Start(ctx context.Context) error {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	log := logf.FromContext(ctx).WithName("ledger-flood")
	for {
		select {
		case <-ctx.Done():
			final, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
			defer cancel()
			if err := f.Flush(final); err != nil {
				log.Error(err, "Cannot record the last flood windows")
			}
			return nil
		case <-t.C:
			if err := f.Flush(ctx); err != nil {
				log.Error(err, "Cannot record a flood window; it is in the loss account")
			}
		}
	}
}

func (f *FloodControl) settings(ctx context.Context) FloodSettings {
	if f.Settings == nil {
		return FloodSettingsOf(nil)
	}
	return f.Settings(ctx)
}

func (f *FloodControl) now() time.Time {
	if f.Clock == nil {
		return time.Now()
	}
	return f.Clock.Now()
}
