package safety

import (
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Arithmetic made only of numbers is a number, known before the command runs: kill -9 $((-1)),
// kill $[0-1] and kill -- $((~0)) are kill -9 -1, and rm -rf /tmp/x$((1)) is rm -rf /tmp/x1.
// Such an expansion is rendered as its value instead of the run-time placeholder; anything else in
// it (a name, an expansion, an assignment, ++, a ternary) keeps it computed.

// constArith returns the value bash gives an arithmetic expression made only of numeric literals,
// parentheses and operators that assign nothing, and whether it is one. An expression bash refuses
// (a division by zero, a negative power, a digit past its base) is not one: the command does not
// run as written.
func constArith(x syntax.ArithmExpr) (int64, bool) {
	switch x := x.(type) {
	case *syntax.Word:
		return arithLiteral(x.Lit())
	case *syntax.ParenArithm:
		return constArith(x.X)
	case *syntax.UnaryArithm:
		v, ok := constArith(x.X)
		if !ok {
			return 0, false
		}
		switch x.Op {
		case syntax.Plus:
			return v, true
		case syntax.Minus:
			return -v, true
		case syntax.BitNegation:
			return ^v, true
		case syntax.Not:
			return boolInt(v == 0), true
		}
		return 0, false // ++ and -- assign
	case *syntax.BinaryArithm:
		l, ok := constArith(x.X)
		if !ok {
			return 0, false
		}
		switch x.Op {
		case syntax.Comma: // (1, -1) is its last value
			return constArith(x.Y)
		case syntax.TernQuest: // 1 ? -1 : 2 is the branch its condition picks
			if c, ok := x.Y.(*syntax.BinaryArithm); ok && c.Op == syntax.TernColon {
				if l != 0 {
					return constArith(c.X)
				}
				return constArith(c.Y)
			}
			return 0, false
		}
		r, ok := constArith(x.Y)
		if !ok {
			return 0, false
		}
		return binaryArith(x.Op, l, r)
	}
	return 0, false
}

// binaryArith applies a binary arithmetic operator as bash does on its 64-bit integers, wrapping
// on overflow; assignments are not applied (constArith reads the comma and the ternary).
func binaryArith(op syntax.BinAritOperator, l, r int64) (int64, bool) {
	switch op {
	case syntax.Add:
		return l + r, true
	case syntax.Sub:
		return l - r, true
	case syntax.Mul:
		return l * r, true
	case syntax.Quo, syntax.Rem:
		if r == 0 || r == -1 {
			return 0, false // bash refuses a division by zero; -1 it special-cases
		}
		if op == syntax.Quo {
			return l / r, true
		}
		return l % r, true
	case syntax.Pow:
		if r < 0 {
			return 0, false
		}
		v := int64(1)
		for b := l; r > 0; r >>= 1 {
			if r&1 == 1 {
				v *= b
			}
			b *= b
		}
		return v, true
	case syntax.Shl, syntax.Shr:
		if r < 0 || r > 63 {
			return 0, false
		}
		if op == syntax.Shl {
			return l << r, true
		}
		return l >> r, true
	}
	return logicArith(op, l, r)
}

// logicArith applies a bitwise, logical or comparison operator.
func logicArith(op syntax.BinAritOperator, l, r int64) (int64, bool) {
	switch op {
	case syntax.And:
		return l & r, true
	case syntax.Or:
		return l | r, true
	case syntax.Xor:
		return l ^ r, true
	case syntax.AndArit:
		return boolInt(l != 0 && r != 0), true
	case syntax.OrArit:
		return boolInt(l != 0 || r != 0), true
	case syntax.Eql:
		return boolInt(l == r), true
	case syntax.Neq:
		return boolInt(l != r), true
	case syntax.Lss:
		return boolInt(l < r), true
	case syntax.Gtr:
		return boolInt(l > r), true
	case syntax.Leq:
		return boolInt(l <= r), true
	case syntax.Geq:
		return boolInt(l >= r), true
	}
	return 0, false
}

func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// arithLiteral reads a number as bash's arithmetic does: decimal, 0x hexadecimal, 0 octal, or
// BASE#DIGITS with a base from 2 to 64 (digits 0-9, a-z, A-Z, @, _; below base 37 letters of
// either case are 10 to 35), wrapping past 64 bits. A name, or a digit its base does not have, is
// not a number.
func arithLiteral(s string) (int64, bool) {
	if s == "" {
		return 0, false
	}
	base, digits := int64(10), s
	switch {
	case strings.Contains(s, "#"):
		b, rest, _ := strings.Cut(s, "#")
		n, err := strconv.Atoi(b)
		if err != nil || n < 2 || n > 64 || rest == "" {
			return 0, false
		}
		base, digits = int64(n), rest
	case len(s) > 2 && (s[:2] == "0x" || s[:2] == "0X"):
		base, digits = 16, s[2:]
	case len(s) > 1 && s[0] == '0':
		base, digits = 8, s[1:]
	}
	var v int64
	for i := 0; i < len(digits); i++ {
		d := digitValue(digits[i], base)
		if d < 0 || d >= base {
			return 0, false
		}
		v = v*base + d
	}
	return v, true
}

// digitValue is a digit's value in bash's arithmetic for the base, or -1.
func digitValue(c byte, base int64) int64 {
	switch {
	case c >= '0' && c <= '9':
		return int64(c - '0')
	case c >= 'a' && c <= 'z':
		return int64(c-'a') + 10
	case c >= 'A' && c <= 'Z':
		if base <= 36 {
			return int64(c-'A') + 10
		}
		return int64(c-'A') + 36
	case c == '@':
		return 62
	case c == '_':
		return 63
	}
	return -1
}
