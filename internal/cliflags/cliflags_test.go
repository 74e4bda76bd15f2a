package cliflags

import (
	"flag"
	"io"
	"strings"
	"testing"
)

// The flag package leaves every flag after a stray word unread; FlagsOnly is what turns that
// silence into a refusal naming the word, and lets a command line of flags alone through.
func TestFlagsOnlyNamesTheFirstStrayArgument(t *testing.T) {
	for _, c := range []struct {
		line  []string
		stray string // "" when every flag is read
	}{
		{[]string{"--namespace=payments", "--leader-elect"}, ""},
		{[]string{"--namespace", "payments"}, ""},
		{[]string{"--leader-elect", "payments", "--namespace=payments"}, "payments"},
		{[]string{"-", "--namespace=payments"}, "-"},
		{[]string{"--namespace=payments", "--", "--leader-elect"}, "--leader-elect"},
	} {
		fs := flag.NewFlagSet("x", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		fs.String("namespace", "", "")
		fs.Bool("leader-elect", false, "")
		if err := fs.Parse(c.line); err != nil {
			t.Fatalf("%q: %v", c.line, err)
		}
		err := FlagsOnly("toolgate-x", fs.Args())
		switch {
		case c.stray == "" && err != nil:
			t.Errorf("%q: every flag was read, got %v", c.line, err)
		case c.stray != "" && (err == nil || !strings.Contains(err.Error(), `unexpected argument "`+c.stray+`"`) ||
			!strings.Contains(err.Error(), "toolgate-x")):
			t.Errorf("%q: want a refusal naming %q and the program, got %v", c.line, c.stray, err)
		}
	}
}
