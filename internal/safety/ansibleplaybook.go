package safety

import (
	"cmp"
	"slices"
	"strings"
)

// ansible-playbook runs the playbooks it is given, code the engine does not read: a declared
// ansible-playbook runs the project's. One the line wrote, fed on standard input or computed at
// run time is not the project's, and neither are what ansible reads besides it as the ad-hoc
// command does (ansibleAdHoc): an inventory script, extra vars rendered as templates or naming
// the programs ansible runs, a module path, ssh's ProxyCommand. Each makes the command opaque.

// cmdAnsiblePlaybook is ansible's playbook runner.
const cmdAnsiblePlaybook = "ansible-playbook"

// ansiblePlaybook analyses an ansible-playbook command.
func (a *analyzer) ansiblePlaybook(idx int) {
	seg := a.out.segments[idx]
	c := ansibleOptions(seg.words)
	why := cmp.Or(c.why, sshOptionCode(&seg))
	for _, inv := range slices.Concat(c.inventories, ansibleEnvInventories(&seg)) {
		why = cmp.Or(why, a.ansibleInventoryCode(inv))
	}
	why = cmp.Or(why, a.ansibleVaultFiles(c.vaults))
	for k := 1; k < len(seg.words) && why == ""; k++ {
		name, _, next := ansibleOption(seg.words, k)
		if w := seg.words[k]; name == "" && next == k && (w.dynamic || !strings.HasPrefix(w.s, "-")) {
			why = a.playbookCode(w)
		}
		k = next
	}
	if why != "" {
		a.opaque(idx, why)
	}
}

// playbookCode says why a playbook is not the project's ("" when it may be).
func (a *analyzer) playbookCode(w word) string {
	switch {
	case w.dynamic:
		return "ansible-playbook's playbook is computed at run time"
	case namesStdin(w.s):
		return "ansible-playbook runs the playbook fed on its standard input"
	case a.lineWrote(w.s):
		return "ansible-playbook runs the playbook " + w.s + ", which this command line wrote before it"
	}
	return ""
}
