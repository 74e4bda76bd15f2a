package safety

// tenthCatalogue holds the tenth engine review's rows: resolver variables that send a name where a
// file or value the line chooses says (resolverEnvVars); name references whose target is read at
// run time, chained, or given by a loop (namerefs.go).
func tenthCatalogue() []classCase {
	sh := shCall
	meta := asked(RulePrefixDamageControl + "print-credentials-cloud-metadata")
	opaque := asked(RuleOpaqueCode)
	const (
		resolver = "a resolver variable that sends a name where the line says"
		nameref  = "a name reference given its target at run time, chained or looped"
	)
	return []classCase{
		{resolver, "HOSTALIASES aliases a short name", sh(`HOSTALIASES=/tmp/h curl http://foo/`), meta, sh(`curl http://foo/`), false},
		{resolver, "HOSTALIASES exported first", sh(`export HOSTALIASES=/tmp/h; curl http://foo/`), meta, sh(`export LC_ALL=C; curl http://foo/`), false},
		{resolver, "HOSTALIASES declared exported", sh(`declare -x HOSTALIASES=/tmp/h; wget -qO- http://foo/`), meta, sh(`declare -x LANG=C; wget -qO- http://foo/`), false},
		{resolver, "HOSTALIASES by env", sh(`env HOSTALIASES=/tmp/h curl http://foo/`), meta, sh(`curl --noproxy "*" http://foo/`), false},
		{resolver, "HOSTALIASES for a shell's commands", sh(`HOSTALIASES=/tmp/h bash -c 'curl http://foo/'`), meta, sh(`bash -c 'curl http://foo/'`), false},
		{resolver, "LOCALDOMAIN makes a short name the metadata service's", sh(`LOCALDOMAIN=google.internal curl http://foo/`), meta, sh(`curl http://foo.example.com/`), false},
		{resolver, "RES_OPTIONS", sh(`RES_OPTIONS='ndots:5 attempts:1' curl http://foo/`), meta, sh(`curl --retry 2 http://foo/`), false},
		{resolver, "RESOLV_HOST_CONF, another host configuration", sh(`RESOLV_HOST_CONF=/tmp/h curl http://foo/`), meta, sh(`cat /etc/host.conf`), false},
		{resolver, "HOSTALIASES read at run time", sh(`read HOSTALIASES <<< /tmp/h; export HOSTALIASES; curl http://foo/`), asked(RuleOpaqueCode), sh(`read X <<< /tmp/h; echo "$X"`), false},

		{nameref, "read into a reference without a target", sh(`declare -n r; read r <<< PATH; r=/tmp; ls`), opaque, sh(`declare -n r; read r <<< x; echo hi`), false},
		{nameref, "read -r from a file into local -n", sh(`local -n r; IFS= read -r r < /tmp/n; r=/tmp; ls`), opaque, sh(`local -n r=out; r=1; echo "$out"`), false},
		{nameref, "typeset -n given its target by printf -v", sh(`typeset -n r; printf -v r PATH; r=/tmp; ls`), opaque, sh(`printf -v r '%s' PATH; echo "$r"`), false},
		{nameref, "mapfile into a reference without a target", sh(`declare -n r; mapfile -t r <<< BASH_ENV; r=/tmp/x; bash -c ls`), opaque, sh(`declare -n r; r=lines; read r <<< x; bash -c ls`), false},
		{nameref, "getopts into a reference without a target", sh(`declare -n r; getopts a r; r=/tmp/x/.git; git log`), opaque, sh(`declare -n r; r=cfg; r=/tmp/x; git log`), false},
		{nameref, "a computed target assigned later", sh(`declare -n r; r=$1; r=/tmp; ls`), opaque, sh(`declare -n r; r=dir; r=$1; ls`), false},
		{nameref, "a reference to a reference", sh(`declare -n a=PATH; declare -n b=a; b=/tmp; ls`), opaque, sh(`declare -n a=out; declare -n b=a; b=/tmp; ls`), false},
		{nameref, "a reference to one declared later", sh(`declare -n r=x; declare -n x=PATH; r=/tmp; ls`), opaque, sh(`declare -n r=x; declare -n x=y; r=/tmp; ls`), false},
		{nameref, "a reference given another reference as its target", sh(`declare -n b; declare -n a=BASH_ENV; b=a; b=/tmp/x; bash -c ls`), opaque, sh(`declare -n b; declare -n a=out; b=a; b=/tmp/x; bash -c ls`), false},
		{nameref, "read through a chain", sh(`declare -n a=PATH; declare -n b=a; read b <<< /tmp; ls`), opaque, sh(`declare -n a=out; declare -n b=a; read b <<< /tmp; ls`), false},
		{nameref, "a for loop re-targets a reference", sh(`declare -n r; for r in PATH; do r=/tmp; done; ls`), opaque, sh(`declare -n r; for r in a b; do r=1; done; ls`), false},
		{nameref, "a for loop over computed names", sh(`declare -n r; for r in "$@"; do r=/tmp; done; ls`), opaque, sh(`for r in "$@"; do echo "$r"; done`), false},
		{nameref, "an array through a target read at run time", sh(`declare -n r; read r <<< BASH_CMDS; r[ls]=/tmp/x; ls`), opaque, sh(`declare -A m; m[ls]=/tmp/x; ls`), false},
		{nameref, "an arithmetic store through a target read at run time", sh(`declare -n r; read r <<< PATH; (( r = 1 )); ls`), opaque, sh(`declare -n r=n; (( r = 1 )); ls`), false},
	}
}
