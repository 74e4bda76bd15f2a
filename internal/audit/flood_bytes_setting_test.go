package audit

import (
	"context"
	"fmt"
	"testing"
	"time"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
)

// The byte budget is the AuditLedger's spec.floodControl.deniedBytesPerMinute, for each minute
// of the window; unset (0), the default.
func TestFloodByteBudgetFollowsTheSpec(t *testing.T) {
	for _, c := range []struct {
		name      string
		spec      *safetyv1alpha1.AuditLedgerSpec
		perWindow int64
	}{
		{"no AuditLedger", nil, DefaultDeniedBytesPerMinute},
		{"unset", &safetyv1alpha1.AuditLedgerSpec{}, DefaultDeniedBytesPerMinute},
		{"4 KiB a minute, a two-minute window", &safetyv1alpha1.AuditLedgerSpec{FloodControl: safetyv1alpha1.LedgerFloodControl{
			DeniedBytesPerMinute: 4096, WindowSeconds: 120}}, 8192},
		{"4 KiB a minute, a 15 s window", &safetyv1alpha1.AuditLedgerSpec{FloodControl: safetyv1alpha1.LedgerFloodControl{
			DeniedBytesPerMinute: 4096, WindowSeconds: 15}}, 1024},
		{"the CRD's largest budget and window", &safetyv1alpha1.AuditLedgerSpec{FloodControl: safetyv1alpha1.LedgerFloodControl{
			DeniedBytesPerMinute: 1 << 30, WindowSeconds: 86400}}, 1 << 30 * 1440},
	} {
		if got := FloodSettingsOf(c.spec).bytesPerWindow(); got != c.perWindow {
			t.Errorf("%s: a window's byte budget is %d, want %d", c.name, got, c.perWindow)
		}
	}
}

// A smaller budget refuses sooner: denials of 1000 argument bytes pass until the window's
// reservations would pass 4096 bytes, where the default budget lets the count decide.
func TestFloodByteBudgetSetSmallerRefusesSooner(t *testing.T) {
	passed := func(perMinute int64) int {
		f, _, _ := floodFixture(t, 0)
		f.Settings = func(context.Context) FloodSettings {
			return FloodSettings{DeniedPerWindow: DefaultDeniedPerWindow, Window: time.Minute, DeniedBytesPerMinute: perMinute}
		}
		n := 0
		for i := range DefaultDeniedPerWindow {
			if !f.Refuse(t.Context(), DeniedCall{Namespace: "ns", Requester: "u", Call: fmt.Sprintf("c-%d", i),
				Reason: "PathDenied", Bytes: 1000}) {
				n++
			}
		}
		return n
	}
	if got := passed(4096); got != 4 {
		t.Errorf("with 4096 bytes a minute, %d denials of 1000 bytes passed in a window; want 4", got)
	}
	if got := passed(0); got != DefaultDeniedPerWindow {
		t.Errorf("with the default budget, %d denials of 1000 bytes passed in a window; want %d (the count)", got, DefaultDeniedPerWindow)
	}
}
