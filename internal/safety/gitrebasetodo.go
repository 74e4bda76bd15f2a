package safety

import (
	"slices"
	"strings"
)

// git rebase -i hands its todo list to the sequence editor (GIT_SEQUENCE_EDITOR, else the
// commit message editor: GIT_EDITOR, VISUAL, EDITOR), and runs the list it gets back: an exec
// line runs a shell command, as rebase -x's do. An editor the line names is a program that edits
// the list unseen (GIT_SEQUENCE_EDITOR='sed -i s/pick/exec id/'), so the rebase runs commands the
// engine cannot see; its own command line is checked as any such variable's is (commandEnvVars).
// git rebase --edit-todo hands it over again mid-rebase. true and : keep the list as it is (GIT_SEQUENCE_EDITOR=true git rebase -i --autosquash) and
// stay admitted. git -c sequence.editor is git-config-exec's.

// todoKept are the editors that leave the todo list as it is (and none, an empty value).
var todoKept = wordSet("true :")

// gitTodoEditors are the variables git rebase -i takes its sequence editor from.
var gitTodoEditors = wordSet("GIT_SEQUENCE_EDITOR GIT_EDITOR VISUAL EDITOR")

// rebaseTodoEdited returns why git rebase -i runs a todo list an editor the line names rewrote
// ("" when it does not).
func rebaseTodoEdited(s *segment) string {
	if len(s.operands) == 0 || s.operands[0].s != "rebase" || !slices.ContainsFunc(s.words[1:], editsTodo) {
		return ""
	}
	for _, kv := range s.env {
		name, val, _ := strings.Cut(kv, "=")
		if v := strings.TrimSpace(val); gitTodoEditors[name] && v != "" && !todoKept[v] {
			return "-i with " + name + "=" + val + ", an editor that rewrites the todo list, whose exec lines run commands"
		}
	}
	return ""
}

// editsTodo says whether a git rebase word is an option that hands the todo list to the editor: -i (alone or
// in a bundle of options that take no value, -ir), --interactive or a prefix of it, --edit-todo.
func editsTodo(w word) bool {
	f := w.s
	if long, ok := strings.CutPrefix(f, "--"); ok {
		return len(long) >= 3 && strings.HasPrefix("interactive", long) || long == "edit-todo"
	}
	return len(f) > 1 && strings.Trim(f[1:], "irmvqnfk") == "" && strings.ContainsRune(f[1:], 'i')
}
