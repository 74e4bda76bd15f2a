package safety

// ActionClass is what a call does, as the reference classifier names it. The autonomy mapping
// decides allow, ask or deny per class.
type ActionClass string

const (
	// ClassRead reads and changes nothing.
	ClassRead ActionClass = "read"
	// ClassWrite creates, changes or deletes files inside the workspace.
	ClassWrite ActionClass = "write"
	// ClassDelete removes the paths a tool is given, with everything below them: the path policy
	// checks them as deletes (noDelete, and what a directory contains).
	ClassDelete ActionClass = "delete"
	// ClassExecute runs a command or program.
	ClassExecute ActionClass = "execute"
	// ClassDispatch hands work to another agent.
	ClassDispatch ActionClass = "dispatch"
	// ClassSystemModify changes the system: privileged commands, package installs, writes to
	// system roots, the home directory or outside the working directory.
	ClassSystemModify ActionClass = "system_modify"
	// ClassGitDestructive destroys git history or uncommitted work (force push, reset --hard ...).
	ClassGitDestructive ActionClass = "git_destructive"
	// ClassUnknown is a tool whose effect is not known.
	ClassUnknown ActionClass = "unknown"
)

// classRank orders classes by danger, so escalation only ever moves up.
func (c ActionClass) rank() int {
	switch c {
	case ClassRead:
		return 1
	case ClassWrite:
		return 2
	case ClassDelete:
		return 3
	case ClassDispatch:
		return 4
	case ClassExecute:
		return 5
	case ClassUnknown:
		return 6
	case ClassSystemModify:
		return 7
	case ClassGitDestructive:
		return 8
	}
	return 0
}

func escalate(c, to ActionClass) ActionClass {
	if to.rank() > c.rank() {
		return to
	}
	return c
}

// Tool is the capability of a registered tool. In the cluster it comes from the AgentTool
// registry, never from the caller.
type Tool struct {
	// Name is the registered tool name, e.g. "fs/write" or "shell/bash".
	Name string
	// Writes is true for tools that can change state.
	Writes bool
	// Unsafe is true for tools the registry marks unsafe.
	Unsafe bool
	// Checkpointable is true for tools whose effects can be checkpointed and rolled back.
	Checkpointable bool
	// ActionClass is the registry's class for the tool. Empty derives it: execute when the call
	// carries a command, write for writing tools, read otherwise.
	ActionClass ActionClass
	// SkillCategory is the tool's skill category; meaningful only when HasSkillCategory is set.
	SkillCategory string
	// HasSkillCategory distinguishes "no category recorded" from an empty category.
	HasSkillCategory bool
}

// Context holds the trusted facts about the plan and the step a call belongs to. In the cluster
// the controllers and the webhook fill it from the plan, its locked snapshot and its usage.
type Context struct {
	// ReadOnlyPlan denies every writing tool.
	ReadOnlyPlan bool
	// RequireCheckpoints requires checkpoints whatever the profile says.
	RequireCheckpoints bool
	// SandboxID identifies the sandbox the call runs in; empty means none.
	SandboxID string
	// HumanApproved is true when a person approved this call (an object a human created, never
	// the agent's own ServiceAccount). It satisfies the approval requirement and every "ask".
	HumanApproved bool
	// AccumulatedCost is the plan's cost so far.
	AccumulatedCost Money
	// TotalCost is the cost across every plan counted against max_total_cost.
	TotalCost Money
	// HeldCost is what the plan's calls hold, beyond their cost so far, until their cost is
	// reported: it counts against max_cost_per_plan and max_total_cost with the costs above.
	HeldCost Money
	// StepRetryCount is how often this step was retried before this call (attempt number minus one).
	StepRetryCount int32
	// Repeats is how often this same call was seen within the loop window, this one included, as
	// counted by a LoopDetector. Zero means not counted.
	Repeats int
}

// Arguments are what the call asks the tool to act on. They come from the agent, so every path and
// command is checked, never trusted.
type Arguments struct {
	// Command is a shell command line for execute-class tools; empty when the tool takes none.
	Command string
	// Paths are the files and directories the tool touches: written when the tool writes, read
	// otherwise.
	Paths []string
	// Cwd is the working directory of the call; relative paths resolve against it. Empty means the
	// policy's workspace, or an unknown base.
	Cwd string
	// ProjectDir is the agent's project directory as its front door knows it (a coding agent's
	// hook: CLAUDE_PROJECT_DIR, which the agent's cd does not move). The engine takes it, when
	// absolute, to hold the project's protected files as it takes the workspace and the working
	// directory (containment.go); since the agent can name any directory here, it only adds
	// protection: nothing the engine relaxes inside the project (the workspace's) relaxes in it.
	ProjectDir string
}

// Call is one request to run one tool.
type Call struct {
	// Tool is the registered capability of the tool.
	Tool Tool
	// Context holds the trusted facts.
	Context Context
	// Args are the agent's arguments.
	Args Arguments
}
