package safety

import (
	"fmt"
	"testing"
)

func TestZZReviewProc(t *testing.T) {
	p := mustCompile(t, &Profile{}, classRules)
	for _, c := range []string{
		`cat /etc/shadow`,
		`cat /proc/self/environ`,
		`cat /proc/self/task/7/../../environ`,
		`cat /proc/thread-self/../../environ`,
		`cat /proc/self/task/7/../../root/etc/shadow`,
		`cat /proc/thread-self/../../root/etc/shadow`,
		`cat /proc/1/task/1/../../root/etc/shadow`,
		`cat /proc/self/*/etc/shadow`,
		`cat /proc/self/r?ot/etc/shadow`,
		`cat /proc/self/roo[t]/etc/shadow`,
		`cat /proc/*/root/etc/shadow`,
		`cat /proc/[0-9]*/root/etc/shadow`,
		`cat /pro?/self/root/etc/shadow`,
		`cat /pr*/self/root/etc/shadow`,
		`cat /proc/self/root/etc/shado?`,
		`cat /proc/./self/root/etc/shadow`,
		`cat //proc/self/root/etc/shadow`,
		`cat /proc/self/../self/root/etc/shadow`,
		`cat /PROC/self/root/etc/shadow`,
		`cat /proc/self/{root,x}/etc/shadow`,
		`cat /proc/{self,1}/root/etc/shadow`,
		`x=/proc/self/root; cat $x/etc/shadow`,
		`cd /proc/self && cat root/etc/shadow`,
		`cd /proc && cat self/root/etc/shadow`,
		`cd /proc/self/root && cat etc/shadow`,
		`cd / && cat proc/self/root/etc/shadow`,
		`cd /proc/self/task/1 && cat ../../root/etc/shadow`,
		`cd /proc/self/task/1/../.. && cat root/etc/shadow`,
		`cat /proc/self/fd/3`,
		`cat /dev/fd/3`,
		`cat /proc/self/cwd/../../etc/shadow`,
		`cat /proc/self/map_files/x`,
		`cat /proc/self/mem`,
		`cat /proc/1/environ`,
		`cat /proc/1/task/1/environ`,
		`cat /proc/self/task/7/../7/environ`,
		`ls /proc/self/task/7/..`,
		`cat ~root/../etc/shadow`,
		`cat /proc/self/root/var/run/secrets/kubernetes.io/serviceaccount/token`,
		`cat /proc/self/task/1/../../root/var/run/secrets/kubernetes.io/serviceaccount/token`,
		`cat /proc/self/task/1/../../cwd/../.env`,
		`cat /proc/self/cwd/../.env`,
		`cat /proc/self/root/workspace/.env`,
		`cat /workspace/.env`,
		`cat /proc/$$/root/etc/shadow`,
		`cat /proc/$BASHPID/root/etc/shadow`,
		`cat /proc/$(echo self)/root/etc/shadow`,
	} {
		d := Evaluate(p, shCall(c))
		fmt.Printf("%-80s %v %s\n", c, d.Verdict, d.RuleID)
	}
	for _, r := range []string{"/proc/self/task/7/../../root/etc/shadow", "/proc/thread-self/../../environ", "/proc/self/task/1/../../environ"} {
		d := Evaluate(p, readCall(r))
		fmt.Printf("read %-75s %v %s\n", r, d.Verdict, d.RuleID)
	}
}
