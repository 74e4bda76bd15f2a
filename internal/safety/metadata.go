package safety

import (
	"net/netip"
	"net/url"
	"slices"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// The cloud's instance metadata service hands out the machine's credentials (an IAM role's keys, a
// service account's token, a managed identity's token) to whoever asks it over HTTP. Its address
// is spelled many ways that all reach it: 169.254.169.254 is also 2852039166, 0xa9fea9fe,
// 0251.0376.0251.0376, 169.254.43518 and ::ffff:a9fe:a9fe, as inet_aton and the URL parsers of curl,
// wget and most languages read them. reachesCloudMetadata parses each host-like token of a
// command's words as those parsers do and compares the address, where a regular expression would
// list spellings and miss the next one. A host name that resolves there is not seen.

// metadataV4 are the IPv4 metadata services: AWS, GCP, Azure, OpenStack and others
// (169.254.169.254), ECS task credentials (169.254.170.2), Alibaba Cloud (100.100.100.200),
// Azure's WireServer, whose goal state holds the VM extensions' protected settings and the
// certificates that decrypt them (168.63.129.16), and Oracle Cloud's legacy service (192.0.0.192).
var metadataV4 = []uint32{0xA9FEA9FE, 0xA9FEAA02, 0x646464C8, 0xA83F8110, 0xC00000C0}

// metadataV6 are AWS's and GCP's IPv6 metadata services.
var metadataV6 = []netip.Addr{netip.MustParseAddr("fd00:ec2::254"), netip.MustParseAddr("fd20:ce::254")}

// metadataHosts are the metadata services' names: GCP's, Tencent Cloud's, Equinix Metal's and
// IBM Cloud's. Each holds "metadata", which metadataTokens searches for first.
var metadataHosts = []string{"metadata.google.internal", "metadata.goog", "metadata.tencentyun.com",
	"metadata.packet.net", "metadata.platformequinix.com", "api.metadata.cloud.ibm.com"}

// metadataShortHosts are the names a cloud's resolver gives its metadata service by the search
// domain or a host entry, one word alone: GCE's "metadata" (http://metadata/computeMetadata/v1/)
// and EC2's "instance-data" (and instance-data.ec2.internal). As words they mean much else
// (.metadata.name, gs://metadata/), so they count only as an http(s) URL's or a proxy's host, or
// as the host a network client's bare HOST/PATH or HOST:PORT operand names.
var metadataShortHosts = []string{"metadata", "instance-data"}

// resolverEnvVars redirect where the C library's resolver (and c-ares, which curl can use) sends a
// name: HOSTALIASES a file of aliases for names without a dot (foo metadata.google.internal),
// LOCALDOMAIN the search domains a short name is tried in, RES_OPTIONS its ndots and lookup
// options, RESOLV_HOST_CONF and RESOLV_CONF another host or resolver configuration. Where a name
// then resolves is in a file or value the command line chooses, which the engine does not read:
// HOSTALIASES=/tmp/h curl http://foo/ can reach the metadata service by a name that is not one of
// its names. A command given one of them asks as one naming the service does; no ordinary build
// or test sets them.
var resolverEnvVars = map[string]bool{"HOSTALIASES": true, "LOCALDOMAIN": true, "RES_OPTIONS": true,
	"RESOLV_HOST_CONF": true, "RESOLV_CONF": true}

// resolvesElsewhere says whether a network client is told to ask a name server the command line
// chooses (curl --dns-servers, --doh-url, aria2c --async-dns-server), which can answer any name
// with the metadata service's address, as a resolver variable can.
func resolvesElsewhere(s *segment) bool {
	switch s.name {
	case cmdCurl:
		return s.hasFlag("--dns-servers") || s.hasFlag("--doh-url")
	case "aria2c":
		return s.hasFlag("--async-dns-server")
	}
	return false
}

// reachesCloudMetadata reports whether a command names a metadata service's address or name, in
// its words or its environment (http_proxy=169.254.169.254:80 curl http://x/ asks it through the
// proxy), or is given a resolver variable (resolverEnvVars) or a name server (resolvesElsewhere),
// after which any name may be one.
func reachesCloudMetadata(s *segment) bool {
	if resolvesElsewhere(s) {
		return true
	}
	bare := networkClients[s.name]
	for _, w := range s.words[1:] {
		if namesMetadata(w.s, bare) {
			return true
		}
	}
	for _, e := range s.env {
		if n, v, ok := strings.Cut(e, "="); ok && (namesMetadata(v, true) || resolverEnvVars[n]) {
			return true
		}
	}
	return false
}

// networkClients take a bare host as an operand: for them a lone number is an address
// (curl 2852039166/); elsewhere it is one only in a URL's host (gh run view 2852039166 is a run).
var networkClients = map[string]bool{cmdCurl: true, "wget": true, "nc": true, "ncat": true, "netcat": true, "socat": true,
	"telnet": true, "http": true, "https": true, "xh": true, "xhs": true, "aria2c": true, "lynx": true, "w3m": true,
	"links": true, "ping": true, "fetch": true, "lwp-request": true}

// namesMetadata reports whether a word holds a metadata address or name among its host-like
// tokens: the text between separators that no address holds (a URL's "/", "@", "[", "]", "=", ...),
// once as written and once with its percent-escapes decoded and its Unicode folded (%31%36%39,
// fullwidth digits and ideographic full stops reach the same host). bare says a token that is a
// lone number counts anywhere; otherwise only where a host is (after "//" or "@", or before "/"
// or ":").
func namesMetadata(w string, bare bool) bool {
	if metadataTokens(w, bare) {
		return true
	}
	if d := decodedHost(w); d != w && metadataTokens(d, bare) {
		return true
	}
	return false
}

func metadataTokens(w string, bare bool) bool {
	start := 0
	for i := 0; i <= len(w); i++ {
		if i < len(w) && addressByte(w[i]) {
			continue
		}
		if t := w[start:i]; t != "" && (bare || hostPosition(w, start, i) || strings.ContainsAny(t, ".:")) && metadataToken(t) {
			return true
		}
		start = i + 1
	}
	if containsFoldASCII(w, "metadata") { // every metadataHosts name holds it: one fast search per word
		for _, h := range metadataHosts {
			if containsFold(w, h) {
				return true
			}
		}
	}
	return shortMetadataHost(w, bare)
}

// shortMetadataHost reports whether w names a metadata service by its short name: after http://
// or https:// (and any user@), or, bare, at its start followed by "/" or ":". It runs for every
// word: only a word with "//" is searched, and it is lower-cased only then.
func shortMetadataHost(w string, bare bool) bool {
	for _, h := range metadataShortHosts {
		if bare && len(w) > len(h) && (w[len(h)] == '/' || w[len(h)] == ':') && strings.EqualFold(w[:len(h)], h) {
			return true
		}
	}
	if !strings.Contains(w, "//") {
		return false
	}
	lw := strings.ToLower(w)
	for _, h := range metadataShortHosts {
		for i := strings.Index(lw, h); i >= 0; {
			if hostAfterScheme(lw[:i]) && hostEnds(lw[i+len(h):], h) {
				return true
			}
			j := strings.Index(lw[i+1:], h)
			if j < 0 {
				break
			}
			i += 1 + j
		}
	}
	return false
}

// hostAfterScheme says whether the text before a host ends an http(s) URL's scheme, with or
// without user information (http://u:p@HOST).
func hostAfterScheme(before string) bool {
	if at := strings.LastIndexByte(before, '@'); at >= 0 && !strings.Contains(before[at:], "/") {
		before = before[:at+1]
		if k := strings.LastIndex(before, "//"); k >= 0 && !strings.Contains(before[k+2:], "/") {
			before = before[:k+2]
		}
	}
	return strings.HasSuffix(before, "http://") || strings.HasSuffix(before, "https://")
}

// hostEnds says whether a short host name ends where the URL's host does: EC2's instance-data
// also has longer names below it (instance-data.ec2.internal).
func hostEnds(rest, h string) bool {
	return rest == "" || strings.ContainsRune("/:?#", rune(rest[0])) || h == "instance-data" && rest[0] == '.'
}

// hostPosition says whether w[start:end] stands where a URL's host does.
func hostPosition(w string, start, end int) bool {
	return strings.HasSuffix(w[:start], "//") || start > 1 && w[start-1] == '@' || // user@host, not date's @seconds
		end < len(w) && (w[end] == '/' || w[end] == ':')
}

// decodedHost is w with its percent-escapes decoded and, when it is not ASCII, folded by NFKC
// with the ideographic full stops that IDNA maps to '.'.
func decodedHost(w string) string {
	if strings.IndexByte(w, '%') >= 0 {
		if d, err := url.PathUnescape(w); err == nil {
			w = d
		}
	}
	for i := 0; i < len(w); i++ {
		if w[i] >= utf8.RuneSelf {
			return idnaDots.Replace(norm.NFKC.String(w))
		}
	}
	return w
}

// idnaDots are the full stops IDNA maps to '.' that NFKC leaves.
var idnaDots = strings.NewReplacer("\u3002", ".", "\uff61", ".")

// addressByte says whether b may be part of an address as a parser reads one: digits, hex letters,
// x (0x), dots, colons (IPv6, a port) and '%' (an IPv6 zone).
func addressByte(b byte) bool {
	return b >= '0' && b <= '9' || b >= 'a' && b <= 'f' || b >= 'A' && b <= 'F' || b == 'x' || b == 'X' ||
		b == '.' || b == ':' || b == '%'
}

// metadataToken says whether a token is a metadata address: an IPv6 or IPv4 address, or an IPv4
// address among its colon-separated parts (HOST:PORT, curl's --resolve NAME:PORT:ADDRESS), each
// with or without a trailing dot (169.254.169.254.nip.io resolves to it).
func metadataToken(t string) bool {
	if strings.Count(t, ":") >= 2 { // only then can it be IPv6: ParseAddr's errors allocate
		if a, err := netip.ParseAddr(strings.TrimRight(t, ".")); err == nil {
			return metadataAddr(a)
		}
	}
	for part := range strings.SplitSeq(t, ":") {
		if v, ok := inetAton(strings.TrimRight(part, ".")); ok && slices.Contains(metadataV4, v) {
			return true
		}
	}
	return false
}

func metadataAddr(a netip.Addr) bool {
	a = a.WithZone("")
	if slices.Contains(metadataV6, a) {
		return true
	}
	if a = a.Unmap(); a.Is4() {
		b := a.As4()
		return slices.Contains(metadataV4, uint32(b[0])<<24|uint32(b[1])<<16|uint32(b[2])<<8|uint32(b[3]))
	}
	return false
}

// inetAton parses an IPv4 address as inet_aton does: one to four parts, each decimal, octal
// (leading 0) or hex (0x), the last part filling the bytes the others leave.
func inetAton(s string) (uint32, bool) {
	var parts [4]uint64
	n := 0
	for p := range strings.SplitSeq(s, ".") {
		v, ok := atonPart(p)
		if n == 4 || !ok {
			return 0, false
		}
		parts[n] = v
		n++
	}
	var v uint64
	for i := range n - 1 {
		if parts[i] > 0xFF {
			return 0, false
		}
		v |= parts[i] << (24 - 8*i)
	}
	if last := parts[n-1]; last < 1<<(8*(5-n)) {
		return uint32(v | last), true
	}
	return 0, false
}

// atonPart parses one part of an inet_aton address, at most 32 bits, without strconv's errors,
// which allocate for every word that is not a number.
func atonPart(p string) (uint64, bool) {
	base := uint64(10)
	switch {
	case len(p) > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X'):
		base, p = 16, p[2:]
	case len(p) > 1 && p[0] == '0':
		base, p = 8, p[1:]
	case p == "":
		return 0, false
	}
	var v uint64
	for i := 0; i < len(p); i++ {
		d := uint64(16)
		switch c := p[i] | 0x20; {
		case p[i] >= '0' && p[i] <= '9':
			d = uint64(p[i] - '0')
		case c >= 'a' && c <= 'f':
			d = uint64(c-'a') + 10
		}
		if d >= base {
			return 0, false
		}
		if v = v*base + d; v > 0xFFFFFFFF {
			return 0, false
		}
	}
	return v, true
}

// containsFold says whether s holds sub (lower case ASCII) in any case.
func containsFold(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i]|0x20 == sub[0] && strings.EqualFold(s[i:i+len(sub)], sub) {
			return true
		}
	}
	return false
}
