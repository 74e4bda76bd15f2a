package ledger

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// parseLineReference is the definition parseLine's scanner implements: decode the line with
// encoding/json, re-encode it the way the writer does, and accept it only if the bytes are the
// same and the hash matches.
func parseLineReference(line []byte) (entry, error) {
	n := len(line)
	if n < hashSuffixLen+2 || !bytes.HasPrefix(line[n-hashSuffixLen:], []byte(hashPrefix)) || !bytes.HasSuffix(line, []byte(`"}`)) {
		return entry{}, errNotRecord
	}
	stored := string(line[n-hashSuffixLen+len(hashPrefix) : n-2])
	if !isHex(stored) {
		return entry{}, errNotRecord
	}
	body := append(bytes.Clone(line[:n-hashSuffixLen]), '}')
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	dec.DisallowUnknownFields()
	var e entry
	if err := dec.Decode(&e); err != nil || dec.More() {
		return entry{}, errNotRecord
	}
	if sum := sha256.Sum256(body); hex.EncodeToString(sum[:]) != stored {
		return entry{}, errHashMismatch
	}
	t, err := time.Parse(timeLayout, e.Time)
	if err != nil || t.UTC().Format(timeLayout) != e.Time || !isHex(e.PrevHash) || e.Fields == nil ||
		!utf8.ValidString(e.Writer) || !utf8.ValidString(e.Kind) {
		return entry{}, errNotRecord
	}
	enc, err := appendCanonical(nil, e.Fields)
	if err != nil {
		return entry{}, errNotRecord
	}
	if again := appendBody(e.Seq, e.Time, e.Writer, e.Kind, enc, e.PrevHash); !bytes.Equal(again, body) {
		return entry{}, errNotRecord
	}
	return e, nil
}

// checkAgainstReference fails if parseLine and the reference disagree about a line.
func checkAgainstReference(t *testing.T, line []byte) {
	t.Helper()
	got, err := parseLine(line)
	want, werr := parseLineReference(line)
	if (err == nil) != (werr == nil) {
		t.Fatalf("parseLine error %v, reference error %v, for %q", err, werr, line)
	}
	if err != nil {
		return
	}
	got.Fields = got.decodeFields()
	if fmt.Sprint(got.entry) != fmt.Sprint(want) {
		t.Fatalf("parseLine %+v, reference %+v", got.entry, want)
	}
}

// resignBody makes a line out of any body, with a correct hash, so the canonical-form check is
// what decides.
func resignBody(body string) []byte { return []byte(resign(body)) }

func TestParseLineMatchesReference(t *testing.T) {
	fields := `{"a":[1,-0.5e+3,true,false,null,{}],"b":"q\"\\\n\r\t\u0001é","c":{"d":[]}}`
	good := `{"seq":7,"time":"2026-11-30T10:00:00.5Z","writer":"w","kind":"decision","fields":` + fields +
		`,"prevHash":"` + genesisHash + `"}`
	variants := []string{
		good,
		strings.Replace(good, `"seq":7`, `"seq":07`, 1),
		strings.Replace(good, `"seq":7`, `"seq":18446744073709551616`, 1),
		strings.Replace(good, `"seq":7`, `"seq":-7`, 1),
		strings.Replace(good, `\u0001`, `\u0041`, 1),
		strings.Replace(good, `\u0001`, `\u000A`, 1),
		strings.Replace(good, `\u0001`, `\u000a`, 1),
		strings.Replace(good, `\n`, `\u000a`, 1),
		strings.Replace(good, `é`, `\u00e9`, 1),
		strings.Replace(good, `é`, "\xff", 1),
		strings.Replace(good, `\"`, `\/`, 1),
		strings.Replace(good, `-0.5e+3`, `-.5`, 1),
		strings.Replace(good, `-0.5e+3`, `1.`, 1),
		strings.Replace(good, `-0.5e+3`, `01`, 1),
		strings.Replace(good, `-0.5e+3`, `1E5`, 1),
		strings.Replace(good, `"a":`, `"a" :`, 1),
		strings.Replace(good, `"c":`, `"a":`, 1),
		strings.Replace(good, `{"d":[]}`, `{"d":[],"d":[]}`, 1),
		strings.Replace(good, `"fields":`+fields, `"fields":[]`, 1),
		strings.Replace(good, `"fields":`+fields, `"fields":null`, 1),
		strings.Replace(good, `"kind":"decision"`, `"kind":"deci\u0000sion"`, 1),
		strings.Replace(good, `.5Z`, `.50Z`, 1),
		strings.Replace(good, `{"seq"`, `{"x":1,"seq"`, 1),
		strings.Replace(good, `true`, `tru`, 1),
		good[:len(good)-1] + `,"more":1}`,
	}
	for i, v := range variants {
		t.Run(fmt.Sprint(i), func(t *testing.T) { checkAgainstReference(t, resignBody(v)) })
	}
	if _, err := parseLine(resignBody(good)); err != nil {
		t.Fatalf("the canonical line was rejected: %v", err)
	}
}

// FuzzParseLineMatchesReference: the scanner accepts exactly the lines the decode-and-re-encode
// definition accepts. Inputs are bodies; the fuzz target signs them, so the hash never decides.
func FuzzParseLineMatchesReference(f *testing.F) {
	fields, _ := newRedactor(nil, 1024).encode(map[string]any{"tool": "shell", "n": 1.5, "l": []any{"a\n", nil, true}})
	good := appendBody(3, "2026-11-30T10:00:00Z", "w", "decision", fields, genesisHash)
	f.Add(good)
	f.Add([]byte(`{"seq":1,"time":"2026-11-30T10:00:00Z","writer":"","kind":"k","fields":{"\u001f":"\t"},"prevHash":"` + genesisHash + `"}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		if len(body) == 0 || body[len(body)-1] != '}' {
			return
		}
		checkAgainstReference(t, resignBody(string(body)))
	})
}
