package policy

import "testing"

func TestApproverKind(t *testing.T) {
	for _, c := range []struct {
		user   string
		groups []string
		want   string
	}{
		{"alice@example.com", []string{"system:authenticated", "developers"}, ApproverPerson},
		{"system:serviceaccount:ns:bot", []string{"system:authenticated"}, ApproverServiceAccount},
		{"alice@example.com", []string{"system:serviceaccounts", "system:authenticated"}, ApproverServiceAccount},
		{"alice@example.com", []string{"system:serviceaccounts:ns"}, ApproverServiceAccount},
		{"system:node:worker-1", []string{"system:authenticated"}, ApproverNotAPerson},
		{"alice@example.com", []string{"system:nodes"}, ApproverNotAPerson},
		{"system:anonymous", nil, ApproverNotAPerson},
		{"alice@example.com", []string{"system:unauthenticated"}, ApproverNotAPerson},
		// Near misses: names that only look like the reserved ones.
		{"system:serviceaccounts-admin", []string{"system:serviceaccountsx"}, ApproverPerson},
		{"system:nodes-team", []string{"system:node"}, ApproverPerson},
	} {
		if got := ApproverKind(c.user, c.groups); got != c.want {
			t.Errorf("ApproverKind(%q, %v) = %q, want %q", c.user, c.groups, got, c.want)
		}
	}
}
