package safety

import "strings"

// flatpak run starts an app in its sandbox, which gets the user's environment (all but a few
// variables) and, as its permissions say, the home: --command=CMD runs CMD there instead of the
// app's program, with the words after the app as its arguments, so flatpak run --command=env
// APP prints the agent's environment as env does.

// flatpakRunValues are flatpak run's options that take a value (GLib's parser takes it attached
// after "=" or as the next word).
var flatpakRunValues = map[string]bool{}

func init() {
	for o := range strings.FieldsSeq(`--arch --branch --command --cwd --runtime --runtime-version --filesystem --nofilesystem
		--env --unset-env --env-fd --socket --nosocket --share --unshare --device --nodevice --allow --disallow --persist
		--talk-name --no-talk-name --own-name --system-talk-name --system-no-talk-name --system-own-name --a11y-own-name
		--add-policy --remove-policy --app-path --usr-path --parent-pid --instance-id-fd --commit --runtime-commit`) {
		flatpakRunValues[o] = true
	}
}

// flatpakCommand returns the command flatpak run's --command gives (the last one), with the
// words after the app as its arguments, or nil.
func flatpakCommand(seg *segment) []word {
	if len(seg.operands) == 0 || seg.operands[0].s != subRun {
		return nil
	}
	var cmd *word
	words := seg.words
	i := 1
	for i < len(words) && words[i].s != subRun {
		i++
	}
	for i++; i < len(words); i++ {
		w := words[i]
		if !strings.HasPrefix(w.s, "-") || w.dynamic || w.s == "--" {
			break // the app (after "--", the next word)
		}
		name, val, hasVal := strings.Cut(w.s, "=")
		if flatpakRunValues[name] && !hasVal && i+1 < len(words) {
			i++
			w, val = words[i], words[i].s
		}
		if name == optCommand {
			c := w.with(val)
			cmd = &c
		}
	}
	if cmd == nil {
		return nil
	}
	if i < len(words) && words[i].s == "--" {
		i++
	}
	out := []word{*cmd}
	if i+1 < len(words) {
		out = append(out, words[i+1:]...) // after the app
	}
	return out
}

// flatpakRun analyses the command flatpak run --command runs in the app's sandbox.
func (a *analyzer) flatpakRun(seg *segment, depth int) {
	if cmd := flatpakCommand(seg); cmd != nil {
		a.command(cmd, nil, nil, depth+1)
	}
}
