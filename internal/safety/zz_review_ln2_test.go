package safety

import (
	"fmt"
	"testing"
)

func TestZZReviewLn2(t *testing.T) {
	p := mustCompile(t, &Profile{}, classRules)
	for _, c := range []string{
		`cp -r /var/ru? r`,
		`cp -r /var/run r`,
		`rm -rf /var/ru?`,
		`cp -r . /tmp/x`,
		`cp -r .. /tmp/x`,
		`ln -s /va?/run r`,
		`ln -s /e?c e`,
		`ln -s /etc e`,
		`cp -r /e?c e`,
		`ln -s /proc/self/r?ot r`,
		`ln -s /pro?/1/root r`,
		`cat /proc/self/ro*/etc/shadow`,
		`cat /proc/1/r??t/var/run/secrets/kubernetes.io/serviceaccount/token`,
		`cat /proc/1/cwd/etc/shadow`,
		`cat /proc/1/fd/3`,
		`ln -s ../etc/shadow /tmp/s && cat /tmp/s`,
	} {
		d := Evaluate(p, shCall(c))
		fmt.Printf("%-85s %v %s\n", c, d.Verdict, d.RuleID)
	}
	for _, r := range []string{"/proc/self/r?ot/etc/shadow", "/proc/1/task/1/../../root/etc/shadow", "/proc/1/task/1/../../environ"} {
		w := Evaluate(p, writeCall(r))
		d := Evaluate(p, readCall(r))
		fmt.Printf("read/write %-75s %v %s / %v %s\n", r, d.Verdict, d.RuleID, w.Verdict, w.RuleID)
	}
}
