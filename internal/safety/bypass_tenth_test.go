package safety

// tenthCatalogue holds the tenth engine review's rows: resolver variables that send a name where a
// file or value the line chooses says (resolverEnvVars).
func tenthCatalogue() []classCase {
	sh := shCall
	meta := asked(RulePrefixDamageControl + "print-credentials-cloud-metadata")
	const (
		resolver = "a resolver variable that sends a name where the line says"
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
	}
}
