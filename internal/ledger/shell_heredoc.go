package ledger

import "strings"

// Here-documents, as shellMask reads them: the body of one whose delimiter is quoted
// (<<'EOF', <<"EOF", <<\EOF, <<E"O"F) is data; an unquoted one's is read as "…" without its
// quotes ($( and backquotes are code). The body starts after the line of its operator and ends at
// the first line that is its delimiter (after leading tabs for <<-), or, inside $( ), at a line
// that is the delimiter and a ) (bash 5.2 ends it there too), or at the text's end. A delimiter
// spelt with $ or a backquote ($'E\x4fF', "$x") is one this reading cannot be sure of: the rest
// is read blind.

// heredocOperator reads the delimiter after << or <<- (j: the byte after the operator). It
// returns the last byte consumed, or -1 to read the rest blind.
func (l *shellLexer) heredocOperator(j, to int, strip bool) int {
	s := l.s
	for j < to && (s[j] == ' ' || s[j] == '\t') {
		j++
	}
	var delim strings.Builder
	quoted := false
	k := j
	for ; k < to; k++ {
		c := s[k]
		if c == ' ' || c == '\t' || c == '\n' || strings.IndexByte(";&|<>()", c) >= 0 {
			break // not at a CR: bash's delimiter 'EOF'\r holds it, and so does the line that ends the body
		}
		switch c {
		case '$', '`':
			return -1
		case '\\':
			if k+1 >= to {
				return -1
			}
			quoted = true
			k++
			delim.WriteByte(s[k])
		case '\'', '"':
			end := strings.IndexByte(s[k+1:to], c)
			if end < 0 {
				return -1
			}
			inner := s[k+1 : k+1+end]
			if c == '"' && strings.ContainsAny(inner, "\\$`") {
				return -1
			}
			quoted = true
			delim.WriteString(inner)
			k += end + 1
		default:
			delim.WriteByte(c)
		}
	}
	if delim.Len() == 0 {
		return -1
	}
	reread := l.rereadAt != nil && l.rereadAt[j-1]
	l.heredocs = append(l.heredocs, pendingHeredoc{delim: delim.String(), strip: strip, quoted: quoted, reread: reread})
	return k - 1
}

// heredocBodies reads the bodies of the here-documents pending when a line ends (pos: the
// byte after its newline). It returns the last byte consumed: the byte before the newline
// that ends the last delimiter's line (that newline is read as any other), or before the )
// that follows a delimiter inside $( ).
func (l *shellLexer) heredocBodies(pos, to int) int {
	s := l.s
	pending := l.heredocs
	l.heredocs = nil
	inSubstitution := l.top().substitutions > 0
	next := to
	for _, h := range pending {
		bodyEnd := to
		next = to
		for line := pos; line < to; {
			end := to
			if e := strings.IndexByte(s[line:to], '\n'); e >= 0 {
				end = line + e
			}
			text := s[line:end]
			if h.strip {
				text = strings.TrimLeft(text, "\t")
			}
			if text == h.delim {
				bodyEnd, next = line, end
				break
			}
			if inSubstitution && len(text) > len(h.delim) && strings.HasPrefix(text, h.delim) && text[len(h.delim)] == ')' {
				bodyEnd, next = line, end-len(text)+len(h.delim)
				break
			}
			line = end + 1
		}
		switch {
		case h.reread:
			blindFrom(s, pos, bodyEnd, l.danger) // ssh h <<EOF, cat <<'EOF' | sh: a shell reads the body
		case !h.quoted:
			l.body(pos, bodyEnd)
		default:
			for k := pos; k < bodyEnd; k++ {
				markData(s, k, l.danger)
			}
		}
		pos = next + 1
		if next >= to || s[next] != '\n' {
			break // a ) ends the substitution, or the text ends: later bodies are not reached here
		}
	}
	return next - 1
}

// maxNestedBodies bounds here-documents read inside another's body ($(cat <<A … inside <<B):
// deeper ones are read blind, so no byte is read more than a few times.
const maxNestedBodies = 3

// body reads an unquoted here-document's body, s[from:to], as "…" without its quotes. A body
// that leaves a substitution open is read blind.
func (l *shellLexer) body(from, to int) {
	if l.bodies >= maxNestedBodies {
		blindFrom(l.s, from, to, l.danger) // each level reads its body once more: bound them
		return
	}
	l.bodies++
	defer func() { l.bodies-- }()
	saved := l.stack
	l.run(from, to, frameHereBody, false)
	if len(l.stack) != 1 {
		blindFrom(l.s, from, to, l.danger)
	}
	l.stack = saved
}
