package safety

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseMoney(t *testing.T) {
	tests := []struct {
		in      string
		nanos   int64
		str     string
		wantErr string
	}{
		{in: "10", nanos: 10e9, str: "10"},
		{in: "0.01", nanos: 1e7, str: "0.01"},
		{in: "10.00", nanos: 10e9, str: "10"},
		{in: "10.0", nanos: 10e9, str: "10"},
		{in: "1500m", nanos: 1.5e9, str: "1.5"},
		{in: "10m", nanos: 1e7, str: "0.01"},
		{in: "250u", nanos: 250e3, str: "0.00025"},
		{in: "5n", nanos: 5, str: "0.000000005"},
		{in: "2k", nanos: 2000e9, str: "2000"},
		{in: "1.5M", nanos: 1.5e15, str: "1500000"},
		{in: "+3", nanos: 3e9, str: "3"},
		{in: ".5", nanos: 5e8, str: "0.5"},
		{in: "5.", nanos: 5e9, str: "5"},
		{in: "0", nanos: 0, str: "0"},
		{in: "000123.4500", nanos: 123.45e9, str: "123.45"},
		{in: "0.123456789", nanos: 123456789, str: "0.123456789"},
		{in: "0.1234567890000", nanos: 123456789, str: "0.123456789"},
		{in: "9223372036.854775807", nanos: math.MaxInt64, str: "9223372036.854775807"},
		{in: "0.1234567891", wantErr: "more precise than 9 fractional digits"},
		{in: "0.5n", wantErr: "more precise than 9 fractional digits"},
		{in: "-1", wantErr: "negative"},
		{in: "-0", wantErr: "negative"},
		{in: "1e3", wantErr: "exponent"},
		{in: "1E-2", wantErr: "exponent"},
		{in: "2e", wantErr: "exponent"},
		{in: "NaN", wantErr: "not a number"},
		{in: "inf", wantErr: "not a number"},
		{in: "Infinity", wantErr: "not a number"},
		{in: "1Ki", wantErr: "unsupported suffix"},
		{in: "1x", wantErr: "unsupported suffix"},
		{in: "", wantErr: "empty"},
		{in: ".", wantErr: "no digits"},
		{in: "m", wantErr: "no digits"},
		{in: "1.2.3", wantErr: "more than one decimal point"},
		{in: " 1", wantErr: "not a decimal number"},
		{in: "1,5", wantErr: "not a decimal number"},
		{in: "0x10", wantErr: "not a decimal number"},
		{in: "9223372036.854775808", wantErr: "out of range"},
		{in: "10000000000", wantErr: "out of range"},
		{in: "10G", wantErr: "out of range"},
		{in: strings.Repeat("1", 65), wantErr: "longer than"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseMoney(tt.in)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("ParseMoney(%q) = %v, %v; want error containing %q", tt.in, got, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseMoney(%q): %v", tt.in, err)
			}
			if diff := cmp.Diff([]any{tt.nanos, tt.str}, []any{got.Nanos(), got.String()}); diff != "" {
				t.Fatalf("(-want +got):\n%s", diff)
			}
			back, err := ParseMoney(got.String())
			if err != nil || back != got {
				t.Fatalf("String form %q does not round-trip: %v, %v", got.String(), back, err)
			}
		})
	}
}

func TestMoneyArithmetic(t *testing.T) {
	a, b := MustParseMoney("0.1"), MustParseMoney("0.2")
	sum, err := a.Add(b)
	if err != nil || sum != MustParseMoney("0.3") {
		t.Fatalf("0.1+0.2 = %v, %v; want exactly 0.3", sum, err)
	}
	if _, err := MoneyFromNanos(math.MaxInt64).Add(MoneyFromNanos(1)); !errors.Is(err, ErrMoneyOverflow) {
		t.Fatalf("overflow not reported: %v", err)
	}
	if _, err := MoneyFromNanos(math.MinInt64).Add(MoneyFromNanos(-1)); !errors.Is(err, ErrMoneyOverflow) {
		t.Fatalf("negative overflow not reported: %v", err)
	}
	if got, err := MoneyFromNanos(math.MaxInt64).Add(MoneyFromNanos(math.MinInt64)); err != nil || got.Nanos() != -1 {
		t.Fatalf("mixed signs: %v, %v", got, err)
	}
	if diff := cmp.Diff([]int{-1, 0, 1}, []int{a.Cmp(b), a.Cmp(a), b.Cmp(a)}); diff != "" {
		t.Fatalf("Cmp (-want +got):\n%s", diff)
	}
	if s := MoneyFromNanos(math.MinInt64).String(); s != "-9223372036.854775808" {
		t.Fatalf("MinInt64 String = %q", s)
	}
	var m Money
	if err := m.UnmarshalText([]byte("1500m")); err != nil || m.String() != "1.5" {
		t.Fatalf("UnmarshalText: %v %v", m, err)
	}
	if err := m.UnmarshalText([]byte("1e3")); err == nil {
		t.Fatal("UnmarshalText accepted an exponent")
	}
	if b, _ := MustParseMoney("0.01").MarshalText(); string(b) != "0.01" {
		t.Fatalf("MarshalText = %q", b)
	}
}

func TestSaturatingAdd(t *testing.T) {
	nearMax := MoneyFromNanos(MaxMoney.Nanos() - 1)
	for _, tc := range []struct {
		a, b, want Money
	}{
		{MustParseMoney("0.1"), MustParseMoney("0.2"), MustParseMoney("0.3")},
		{nearMax, MoneyFromNanos(1), MaxMoney},
		{nearMax, MoneyFromNanos(2), MaxMoney},
		{MaxMoney, MaxMoney, MaxMoney},
		{MaxMoney, Money{}, MaxMoney},
	} {
		if got := tc.a.SaturatingAdd(tc.b); got != tc.want {
			t.Errorf("%s + %s = %s, want %s", tc.a, tc.b, got, tc.want)
		}
	}
	if got := MaxMoney.String(); got != "9223372036.854775807" {
		t.Errorf("MaxMoney is %s", got)
	}
}
