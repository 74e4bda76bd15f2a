package toolcall

import (
	"regexp"
	"strings"
	"unicode"
)

// workingDirectory is the call's working directory: the one its arguments name (checked by
// plainCwd), resolved from base (where the tool resolves a relative one) when it is not absolute
// and base is known; base when the arguments name none.
func workingDirectory(key, named, base string) (string, error) {
	if err := plainCwd(key, named); err != nil {
		return "", err
	}
	switch {
	case named == "":
		return base, nil
	case base == "" || strings.HasPrefix(named, "/"):
		return named, nil
	}
	return strings.TrimSuffix(base, "/") + "/" + named, nil
}

// plainCwd refuses a named working directory that tools take in more than one way, and so one
// the engine cannot judge as the directory the tool runs in: white space or a control character
// at either end (" /etc" is joined below the base as a relative name, where a tool that trims it,
// JavaScript's trim, Python's strip, runs in /etc), a leading "~" (a tool that expands it,
// Python's expanduser, runs in a home directory, where "~/.." joined below the base is the base's
// parent) and any "$" (a tool or shell that expands variables, expandvars, runs where $HOME
// says). Refused rather than judged every way: a directory a person names has none of these.
func plainCwd(key, named string) error {
	switch {
	case named == "":
		return nil
	case strings.TrimFunc(named, edgeSpace) != named:
		return bad("argument %q (the working directory) has white space or a control character at an end, which "+
			"a tool may trim and run elsewhere than the directory judged; send it without", key)
	case strings.HasPrefix(named, "~"):
		return bad("argument %q (the working directory) starts with \"~\", which a tool may expand to a home "+
			"directory, elsewhere than the directory judged; send the directory itself", key)
	case strings.HasPrefix(named, "-"):
		return bad("argument %q (the working directory) starts with \"-\", which a shell's cd takes as an option "+
			"(\"cd -\" is the previous directory), elsewhere than the directory judged; send the directory itself", key)
	case urlScheme.MatchString(named):
		return bad("argument %q (the working directory) starts with a URL scheme (%q), which a tool may open as the "+
			"path it names (file:///etc), elsewhere than the directory judged; send the directory itself", key,
			urlScheme.FindString(named))
	case strings.Contains(named, "$"):
		return bad("argument %q (the working directory) holds \"$\", which a tool or shell may expand as a "+
			"variable, elsewhere than the directory judged; send the directory itself", key)
	}
	return nil
}

// urlScheme is a URL's scheme and its colon at the start of a string (RFC 3986), as file:///etc
// or FILE:/etc begin.
var urlScheme = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*:`)

// treeRoot is the directory a search tool searches for a root it is given: one that is only white
// space or control characters is its working directory, as a tool that trims it opens "" (Claude
// Code's Grep and Glob), and is judged as ".", never as a name the engine's path policy skips.
func treeRoot(root string) string {
	if strings.TrimFunc(root, edgeSpace) == "" {
		return "."
	}
	return root
}

// edgeSpace is what some tool's trim removes from the ends of a string: Go's and Python's white
// space (unicode.IsSpace, Python's also the separators U+001C-U+001F, which are control
// characters), JavaScript's (which adds U+FEFF), and control characters, which no directory's
// name a person types begins or ends with.
func edgeSpace(r rune) bool {
	return unicode.IsSpace(r) || unicode.IsControl(r) || r == '\ufeff' || r == '\u180e' || r == '\u200b'
}
