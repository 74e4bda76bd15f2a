package safety

import (
	"errors"
	"fmt"
	"math"
	"strings"
)

// nanosPerUnit is the fixed-point scale of Money: nine fractional digits, the finest precision a
// Kubernetes resource.Quantity prints with a decimal suffix ("n").
const nanosPerUnit = 1_000_000_000

// maxMoneyInput bounds the text ParseMoney looks at, so a hostile string costs nothing.
const maxMoneyInput = 64

// Money is an exact, non-floating amount of currency with nine fractional digits (nano-units).
// The zero value is zero. Money is comparable with ==; use Cmp for ordering and Add for sums,
// which reports overflow instead of wrapping.
type Money struct {
	nanos int64
}

// MoneyFromNanos returns the amount of n nano-units (1e-9).
func MoneyFromNanos(n int64) Money { return Money{nanos: n} }

// Nanos returns the amount in nano-units (1e-9).
func (m Money) Nanos() int64 { return m.nanos }

// IsZero reports whether the amount is zero.
func (m Money) IsZero() bool { return m.nanos == 0 }

// Cmp returns -1, 0 or +1 as m is less than, equal to or greater than o.
func (m Money) Cmp(o Money) int {
	switch {
	case m.nanos < o.nanos:
		return -1
	case m.nanos > o.nanos:
		return 1
	}
	return 0
}

// ErrMoneyOverflow is returned when a sum or a parsed amount does not fit.
var ErrMoneyOverflow = errors.New("money amount out of range")

// Add returns m+o, or ErrMoneyOverflow when the sum does not fit.
func (m Money) Add(o Money) (Money, error) {
	s := m.nanos + o.nanos
	// Signed overflow happened iff both operands share a sign that the sum does not.
	if (m.nanos >= 0) == (o.nanos >= 0) && (s >= 0) != (m.nanos >= 0) {
		return Money{}, ErrMoneyOverflow
	}
	return Money{nanos: s}, nil
}

// MaxMoney is the largest amount Money holds, about 9.2 billion dollars.
var MaxMoney = Money{nanos: math.MaxInt64}

// SaturatingAdd returns m+o for non-negative amounts, or MaxMoney when the sum does not fit. Usage
// sums saturate rather than fail: an agent that reports absurd costs must meet every cost limit
// (at most a billion), not stop its plan's accounting.
func (m Money) SaturatingAdd(o Money) Money {
	s, err := m.Add(o)
	if err != nil {
		return MaxMoney
	}
	return s
}

// String returns the shortest exact decimal form: "10", "0.01", "1.5".
func (m Money) String() string {
	var b strings.Builder
	u := uint64(m.nanos)
	if m.nanos < 0 {
		b.WriteByte('-')
		u = uint64(-(m.nanos + 1)) + 1 // avoids overflow at math.MinInt64
	}
	fmt.Fprintf(&b, "%d", u/nanosPerUnit)
	if frac := u % nanosPerUnit; frac != 0 {
		s := strings.TrimRight(fmt.Sprintf("%09d", frac), "0")
		b.WriteByte('.')
		b.WriteString(s)
	}
	return b.String()
}

// MarshalText encodes the amount as its String form.
func (m Money) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// UnmarshalText parses the amount with ParseMoney.
func (m *Money) UnmarshalText(b []byte) error {
	v, err := ParseMoney(string(b))
	if err != nil {
		return err
	}
	*m = v
	return nil
}

// siExponents are the decimal suffixes a Kubernetes resource.Quantity may print. Binary suffixes
// (Ki, Mi) make no sense for money and are rejected.
var siExponents = map[string]int{"n": -9, "u": -6, "m": -3, "": 0, "k": 3, "M": 6, "G": 9}

// ParseMoney parses a non-negative decimal amount exactly: "10", "0.01", "10.00", ".5", or a
// Kubernetes quantity with a decimal SI suffix such as "1500m" (1.5) or "250u". It rejects
// negative amounts, exponents ("1e3"), NaN and infinities, binary suffixes, more than nine
// fractional digits after the suffix is applied, and amounts that do not fit.
func ParseMoney(s string) (Money, error) {
	if s == "" {
		return Money{}, errors.New("money: empty amount")
	}
	if len(s) > maxMoneyInput {
		return Money{}, fmt.Errorf("money: amount longer than %d characters", maxMoneyInput)
	}
	body := s
	switch body[0] {
	case '+':
		body = body[1:]
	case '-':
		return Money{}, fmt.Errorf("money: %q is negative; amounts must be zero or more", s)
	}
	num, suffix := splitMoneySuffix(body)
	if err := rejectNonDecimal(s, body, num, suffix); err != nil {
		return Money{}, err
	}
	exp, ok := siExponents[suffix]
	if !ok {
		return Money{}, fmt.Errorf("money: %q has unsupported suffix %q; use a plain decimal or one of n, u, m, k, M, G", s, suffix)
	}
	intPart, fracPart, err := splitDecimal(s, num)
	if err != nil {
		return Money{}, err
	}
	fracPart = strings.TrimRight(fracPart, "0")
	shift := 9 + exp - len(fracPart)
	if shift < 0 {
		return Money{}, fmt.Errorf("money: %q is more precise than 9 fractional digits", s)
	}
	v, err := scaledNanos(strings.TrimLeft(intPart+fracPart, "0"), shift)
	if err != nil {
		return Money{}, fmt.Errorf("money: %q: %w", s, err)
	}
	return Money{nanos: v}, nil
}

// splitMoneySuffix splits an unsigned amount into its numeric part (digits and points) and the
// trailing suffix after it.
func splitMoneySuffix(body string) (num, suffix string) {
	end := len(body)
	for end > 0 && !isDigit(body[end-1]) && body[end-1] != '.' {
		end--
	}
	return body[:end], body[end:]
}

// rejectNonDecimal rejects exponent notation, NaN and infinities; s is the whole input, for the
// message.
func rejectNonDecimal(s, body, num, suffix string) error {
	switch {
	case strings.ContainsAny(num, "eE") || (num != "" && (strings.HasPrefix(suffix, "e") || strings.HasPrefix(suffix, "E") && len(suffix) > 1)):
		return fmt.Errorf("money: %q uses exponent notation; write a plain decimal such as 0.01", s)
	case strings.EqualFold(body, "nan") || strings.EqualFold(body, "inf") || strings.EqualFold(body, "infinity"):
		return fmt.Errorf("money: %q is not a number", s)
	}
	return nil
}

// splitDecimal splits the numeric part at its decimal point and checks that both sides are plain
// digits and that there is at least one digit; s is the whole input, for the message.
func splitDecimal(s, num string) (intPart, fracPart string, err error) {
	intPart, fracPart, _ = strings.Cut(num, ".")
	if strings.Contains(fracPart, ".") {
		return "", "", fmt.Errorf("money: %q has more than one decimal point", s)
	}
	if intPart == "" && fracPart == "" {
		return "", "", fmt.Errorf("money: %q has no digits", s)
	}
	for _, part := range []string{intPart, fracPart} {
		for i := 0; i < len(part); i++ {
			if !isDigit(part[i]) {
				return "", "", fmt.Errorf("money: %q is not a decimal number", s)
			}
		}
	}
	return intPart, fracPart, nil
}

// scaledNanos converts a string of decimal digits to an integer and multiplies it by 10^shift,
// returning ErrMoneyOverflow when the result does not fit.
func scaledNanos(digits string, shift int) (int64, error) {
	var v int64
	for i := 0; i < len(digits); i++ {
		d := int64(digits[i] - '0')
		if v > (math.MaxInt64-d)/10 {
			return 0, ErrMoneyOverflow
		}
		v = v*10 + d
	}
	for ; shift > 0 && v != 0; shift-- {
		if v > math.MaxInt64/10 {
			return 0, ErrMoneyOverflow
		}
		v *= 10
	}
	return v, nil
}

// MustParseMoney is ParseMoney for constants and tests; it panics on a bad amount.
func MustParseMoney(s string) Money {
	m, err := ParseMoney(s)
	if err != nil {
		panic(err)
	}
	return m
}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }
