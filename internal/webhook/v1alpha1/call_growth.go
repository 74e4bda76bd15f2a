package v1alpha1

import (
	"fmt"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
)

// maxGrowableValues bounds the JSON values of a call that anyone but the operator and the plan's
// cost reporter may grow it to. Every call is refused past maxCallValues, updates too, so without
// a smaller bound for the agent an agent could pad its own call (annotations, labels, field
// managers) to just under maxCallValues, and the cost reporter's report, which adds a few values,
// would be refused: the call would count only its reservation. The quarter left is theirs. A
// legitimate call stays far below: its extra arguments hold at most 1024 values, which its
// creator's field manager mirrors.
const maxGrowableValues = maxCallValues * 3 / 4

// growableValues estimates, from above, the JSON values of the parts of a call that grow: labels,
// annotations, finalizers, owner references, the field managers' entries (whose fields an
// apply under a new manager name repeats), the extra arguments and the conditions; the rest of a
// call is small and bounded by its schema.
func growableValues(c *safetyv1alpha1.AgentToolCall) int {
	const fixed, perEntry = 256, 8
	n := fixed + len(c.Labels) + len(c.Annotations) + len(c.Finalizers) + perEntry*len(c.OwnerReferences) +
		perEntry*len(c.Status.Conditions)
	for _, m := range c.ManagedFields {
		n += perEntry
		if m.FieldsV1 != nil {
			n += valueCount(m.FieldsV1.GetRawBytes(), maxCallValues)
		}
	}
	if x := c.Spec.Arguments.Extra; x != nil {
		n += valueCount(x.Raw, maxCallValues)
	}
	return n
}

// tooManyValues is the refusal of a call grown past maxGrowableValues by someone it is not left to.
func tooManyValues(n int) *denial {
	return &denial{ReasonBadRequest, "metadata", fmt.Sprintf(
		"the AgentToolCall would hold about %d JSON values (labels, annotations, field managers, arguments), more than %d: "+
			"the rest is kept for the reports its status receives", n, maxGrowableValues)}
}
