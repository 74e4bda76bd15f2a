package safety

import "testing"

// TestReviewRE37 holds the attacks of review re37 that are fixed: bash reads a quoted or escaped
// "]" (or any quoted character) inside a bracket as a member, where the engine read the word
// after quote removal, so .[e\]]nv ("e or ]") matched nothing protected and read .env (checked
// with bash); and nopt reads -c before a dash word as an empty --call, so the last -c's value
// runs (npm 11.19.1 printed /etc/shadow's head) where the engine judged "-c" as the script. Both
// were admitted at Yolo, the brackets at Default too; the near misses stay admitted.
func TestReviewRE37(t *testing.T) {
	attacks := []string{
		`cat .[e\]]nv`, `cat .[e"]"]nv`, `cat .[e']']nv`, `cat .[e$']']nv`, `cat .[a\]e]nv`,
		`cat .[!a\]]nv`, `cat .[[:alpha:]\]]nv`, `cat .[e\]-z]nv`, `cat /etc/[s\]]hadow`,
		`cat /proc/self/[e\]]nviron`, `cp .[e\]]nv /tmp/x`, `bash -c 'cat .[e\]]nv'`,
		`npm exec -c -c 'cat /etc/shadow'`, `npm exec --call -c 'cat /etc/shadow'`,
		`npm exec -c --call 'cat /etc/shadow'`, `npm x -c -c 'cat /etc/shadow'`,
		// review rv38: the "[" from a variable's value, and find's -name computed at run time
		// (checked with bash 5.2: each read .env).
		`x=.[e; cat $x\]]nv`, `x=.[e; cat $x"]"]nv`, `x=[; cat .${x}e\]]nv`, `x='['; cat /etc/${x}s\]]hadow`,
		`x=.[e; cat < $x\]]nv`, `x=.[e; cp $x\]]nv /tmp/y`,
		`find . -name .[e\]]nv -exec cat {} +`, `find . -name $(echo .env) -exec cat {} +`,
		`find . -iname "$(echo .env)" -exec cat {} +`, `find . -name .[e\]]nv -exec cp {} /tmp/z \;`,
		`find . -name $(echo .env) -delete`,
	}
	nearMisses := []string{`cat README.md`, `ls src/[ab]*.go`, `grep -e "[a-z]" README.md`, `npm exec -c 'npm test'`,
		`x=.[e; cat "$x"\]]nv`, `find . -name '*.go' -exec cat {} +`}
	expectRefusedAtEveryAutonomy(t, attacks, nearMisses)
}
