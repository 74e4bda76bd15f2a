package safety

// AutonomyLevel is the AutomationProfile's autonomy dial.
type AutonomyLevel string

const (
	// AutonomyDefault asks before system changes, unrecognised commands, unknown tools and reads
	// outside the workspace. The empty level means AutonomyDefault.
	AutonomyDefault AutonomyLevel = "Default"
	// AutonomyYolo admits everything the safety net lets through.
	AutonomyYolo AutonomyLevel = "Yolo"
)

// Disposition is the autonomy mapping's answer for one class.
type Disposition string

const (
	// DispositionAllow runs the call.
	DispositionAllow Disposition = "allow"
	// DispositionAsk needs a person.
	DispositionAsk Disposition = "ask"
	// DispositionDeny refuses the call.
	DispositionDeny Disposition = "deny"
)

// AutonomyOptions are the facts the mapping needs besides the class.
type AutonomyOptions struct {
	// ExecuteRecognized is true when every command of an execute call is recognised (a built-in
	// command or a project command).
	ExecuteRecognized bool
	// ReadOutsideWorkspace is true when a read-class call reads outside the workspace.
	ReadOutsideWorkspace bool
}

// MapAutonomy is the reference's autonomy mapping. It applies only to calls the safety net let
// through; it never overrides a block.
//
//	class            Default                      Yolo
//	git_destructive  deny                         deny
//	read             allow (ask outside workspace) allow
//	write, delete    allow                        allow
//	dispatch         allow                        allow
//	execute          allow (ask if unrecognised)  allow
//	unknown          ask                          allow
//	system_modify    ask                          allow
func MapAutonomy(level AutonomyLevel, class ActionClass, o AutonomyOptions) Disposition {
	yolo := level == AutonomyYolo
	switch class {
	case ClassGitDestructive:
		return DispositionDeny
	case ClassRead:
		if o.ReadOutsideWorkspace && !yolo {
			return DispositionAsk
		}
		return DispositionAllow
	case ClassWrite, ClassDelete, ClassDispatch:
		return DispositionAllow
	case ClassExecute:
		if !o.ExecuteRecognized && !yolo {
			return DispositionAsk
		}
		return DispositionAllow
	case ClassSystemModify, ClassUnknown:
		if yolo {
			return DispositionAllow
		}
		return DispositionAsk
	}
	// A class this mapping does not know is treated as unknown, never as allowed.
	if yolo {
		return DispositionAllow
	}
	return DispositionAsk
}
