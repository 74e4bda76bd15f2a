// Package replay decides every decision a ledger holds again, from the arguments and facts the
// decision record carries, under a policy: the snapshot the plan was locked with (the ledger's
// lock records hold it), or the snapshot candidate policy objects would lock. It reports what
// would flip (deny→allow first), counts per rule, and every record it could not decide again,
// with why. It uses the operator's own resolution (controller.ResolveSnapshot), compilation
// (policy.CompileSnapshot) and engine (safety.Evaluate); nothing here decides by itself.
//
// Replay reads the ledger as it is and reports Verify's verdict beside its own: a replay of a
// ledger that does not verify says so.
package replay
