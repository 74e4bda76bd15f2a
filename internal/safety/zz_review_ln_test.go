package safety

import (
	"fmt"
	"testing"
)

func TestZZReviewLn(t *testing.T) {
	p := mustCompile(t, &Profile{}, classRules)
	for _, c := range []string{
		`ln -s /var/run r`,
		`ln -s ../var/run /tmp/r && cat /tmp/r/secrets/kubernetes.io/serviceaccount/token`,
		`ln -s ../etc /tmp/e && cat /tmp/e/shadow`,
		`ln -s ../etc /workspace/e && cat /workspace/e/shadow`,
		`ln -s -t /tmp ../etc && cat /tmp/etc/shadow`,
		`ln -s --target-directory=/tmp ../etc`,
		`mkdir -p a/b && ln -s ../../../../etc a/b/e && cat a/b/e/shadow`,
		`ln -s ../../../../etc a/b/e`,
		`ln -st /tmp /etc`,
		`ln -sT /var/run r`,
		`ln --symbolic --no-target-directory /var/run r`,
		`busybox ln -s /var/run r`,
		`cp -s /etc/shadow s`,
		`cp -rs /var/run r`,
		`cp -s /var/run r`,
		`link /etc/shadow s`,
		`install -D /etc/shadow s`,
		`python3 -c "import os; os.symlink('/var/run','r')"`,
		`ln -s /var/ru? r`,
		`ln -s /var/run/../run r`,
		`ln -s /proc/1/root r`,
		`ln -s /proc/self/cwd/../.. r`,
		`x=/var/run; ln -s $x r`,
		`ln -s "$HOME" h`,
		`ln -s ~ h`,
		// near misses
		`ln -s ../app/docs d`,
		`ln -s .. up`,
		`ln -s ../shared/config config`,
		`ln -sf /usr/bin/python3 .venv/bin/python`,
		`ln -s /usr/lib/x86_64-linux-gnu/libfoo.so libfoo.so`,
		`ln -s /etc/ssl/certs certs`,
		`ln -s /etc/hosts hosts`,
		`ln -s /tmp tmp`,
		`ln -sfn build/v2 build/current`,
		`ln -s /workspace/app/node_modules/.bin/tsc tsc`,
		`ln -sr src/main.go main.go`,
		`ln -s $(pwd)/bin/tool ~/bin/tool`,
		`ln -s /opt/homebrew/bin/node node`,
		`ln -s ~/.cache/pip pipcache`,
		`ln -s /workspace/app app2`,
		`ln -s /workspace shared`,
		`ln -s . self`,
		`ln -s /usr/local/go/bin/go /usr/local/bin/go`,
		`ln -s ~/go/bin/x x`,
		`ln -s /home/runner/work w`,
		`ln a.txt b.txt`,
		`ln -s /var/log logs`,
		`ln -s /var/lib/data data`,
	} {
		d := Evaluate(p, shCall(c))
		fmt.Printf("%-85s %v %s\n", c, d.Verdict, d.RuleID)
	}
}
