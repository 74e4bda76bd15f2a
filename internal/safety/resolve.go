package safety

// Provenance names the level a resolved profile came from.
type Provenance string

const (
	// ProvenancePlan: the plan set the profile.
	ProvenancePlan Provenance = "Plan"
	// ProvenanceAction: the plan's action set the profile.
	ProvenanceAction Provenance = "Action"
	// ProvenanceProject: the project (namespace) set the profile.
	ProvenanceProject Provenance = "Project"
	// ProvenanceGlobal: the global default AutomationProfile set the profile, or nothing did and
	// DefaultProfile applies (then Resolved.Default is true).
	ProvenanceGlobal Provenance = "Global"
)

// Resolved is the outcome of Resolve: a private copy of the winning profile and where it came from.
type Resolved struct {
	// Profile is a deep copy of the winning profile, never nil.
	Profile *Profile
	// Provenance is the level that supplied Profile.
	Provenance Provenance
	// Default is true when no level set a profile and DefaultProfile applies.
	Default bool
}

// Source returns the provenance as recorded in a plan snapshot: "Plan", "Action", "Project",
// "Global", or "Global/Default" when the default profile applied.
func (r Resolved) Source() string {
	if r.Default {
		return string(r.Provenance) + "/Default"
	}
	return string(r.Provenance)
}

// Resolve applies the spec's precedence, plan > action > project > global: the highest level that
// set a profile wins whole (levels are not merged field by field). With every level nil it returns
// DefaultProfile with Global provenance and Default set. The result is a copy, so later edits to
// any source do not change it — the plan controller locks it into the plan's snapshot.
func Resolve(plan, action, project, global *Profile) Resolved {
	levels := [...]struct {
		p   *Profile
		src Provenance
	}{{plan, ProvenancePlan}, {action, ProvenanceAction}, {project, ProvenanceProject}, {global, ProvenanceGlobal}}
	for _, l := range levels {
		if l.p != nil {
			return Resolved{Profile: l.p.Clone(), Provenance: l.src}
		}
	}
	return Resolved{Profile: DefaultProfile(), Provenance: ProvenanceGlobal, Default: true}
}
