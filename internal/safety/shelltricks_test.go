package safety

import "testing"

// Shell tricks that hide what runs: an exported function, a glob or a run-time value where the
// program, subcommand or an option goes, arithmetic that evaluates text as code.
func TestShellTricks(t *testing.T) {
	code, word := asked(RuleOpaqueCode), asked(RuleUnresolvedWord)
	testCredentialCases(t, []credentialCase{
		{"an exported function through env", `env 'BASH_FUNC_ls%%=() { cat .e""nv; }' bash -c ls`, denied(RuleLibraryInjection)},
		{"an exported function, the old spelling", `env 'BASH_FUNC_ls()=() { id; }' bash -c ls`, denied(RuleLibraryInjection)},
		{"an ordinary variable through env", `env LANG=C bash -c ls`, outcome{}},
		{"a glob command name", `/usr/bin/e?v`, word},
		{"a glob command name with operands", `/bin/c?t README.md`, word},
		{"a glob subcommand", `kubectl g*t secrets -o yaml`, word},
		{"a glob option", `rm -[r]f build`, word},
		{"a computed subcommand", `kubectl $V secrets`, word},
		{"a computed git subcommand", `git "$SUB" --force origin main`, word},
		{"a glob operand", `ls *.go`, outcome{}},
		{"a computed option value after the subcommand", `git commit -m "$MSG"`, outcome{}},
		{"a glob after --", `ls -l -- -*.txt`, outcome{}},
		{"arithmetic of a name from outside", `echo $((N))`, code},
		{"arithmetic of a text value", `x='a[$(cat .env)]'; echo $((x))`, code},
		{"arithmetic of a command's output", `echo $(( $(wc -l < README.md) + 1 ))`, code},
		{"a subscript of a command in arithmetic", `echo $((a[$(date +%s)]))`, code},
		{"let of quoted code", `let "x=a[\$(id)]"`, code},
		{"[[ -eq ]] evaluates its operands", `[[ $x -eq 1 ]] && echo y`, code},
		{"a subscript read names", `read 'a[$(id)]' <<< 1`, code},
		{"an array index from outside", `echo ${a[$i]}`, code},
		{"a slice offset from outside", `s=abc; echo ${s:$o}`, code},
		{"a C-style loop bound from outside", `for ((i=0; i<n; i++)); do echo $i; done`, code},
		{"[[ -eq ]] of an expression in one word", `[[ x+1 -eq 1 ]] && echo y`, code},
		{"[[ -eq ]] of a quoted subscript", `[[ "a[1]" -eq 1 ]] && echo y`, code},
		{"[[ -gt ]] of a quoted numeric variable", `n=3; [[ "$n" -gt 1 ]] && echo y`, outcome{}},
		{"hex and base numbers", `echo $(( 0x1f + 16#ff ))`, outcome{}},
		{"arithmetic of numbers", `echo $((1+2*3))`, outcome{}},
		{"arithmetic of a numeric variable", `n=3; echo $((n*2))`, outcome{}},
		{"a C-style loop", `for ((i=0; i<3; i++)); do echo $i; done`, outcome{}},
		{"a loop over numbers", `for i in 1 2 3; do echo $((i*2)); done`, outcome{}},
		{"the argument count", `[[ $# -eq 0 ]] && echo none`, outcome{}},
		{"a string's length", `s=abc; echo $(( ${#s} + 1 ))`, outcome{}},
		{"a numeric array", `a=(1 2); echo $(( a[a[0]] ))`, outcome{}},
		// Names a builtin takes, computed at run time: the value may hold a subscript with code.
		{"test -v of a computed name", `x='a[$(id)]'; test -v "$x"`, code},
		{"[[ -v ]] of a computed name", `x='a[$(id)]'; [[ -v $x ]] && echo y`, code},
		{"[[ -v ]] of a quoted subscript", `[[ -v 'a[$(id)]' ]] && echo y`, code},
		{"read into a computed name", `x='a[$(id)]'; read -r "$x" <<< 1`, code},
		{"read -a into a computed name", `read -ra "$N" <<< 1`, code},
		{"printf -v into a computed name", `printf -v "$N" %s 1`, code},
		{"unset of a computed name", `unset "$N"`, code},
		{"a declaration of a computed name", `export "$N"=1`, code},
		{"declare -i evaluates its value", `x='a[$(id)]'; declare -i y=x`, code},
		{"local -i of a computed value", `local -i y="$N"`, code},
		{"indirect expansion of a name from outside", `echo "${!N}"`, code},
		{"prompt expansion runs the commands in a value", `x='$(id)'; echo "${x@P}"`, code},
		{"read with a computed prompt", `read -r -p "$P" line <<< 1`, outcome{}},
		{"printf -v into a literal name", `printf -v out %s "$N"`, outcome{}},
		{"test -v of a literal name", `[ -v HOME ] && echo y`, outcome{}},
		{"declare -i of a number", `declare -i n=5; echo $n`, outcome{}},
		{"indirect expansion of names the line sets", `for v in HOME PWD; do test -n "${!v}"; done`, outcome{}},
	})
}
