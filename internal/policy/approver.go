package policy

import (
	"slices"
	"strings"
)

// What the API server makes every ServiceAccount, node and unauthenticated request: a username
// with a fixed prefix, and groups of fixed names.
const (
	serviceAccountUserPrefix  = "system:serviceaccount:"
	serviceAccountsGroup      = "system:serviceaccounts"
	serviceAccountGroupPrefix = "system:serviceaccounts:"
	nodeUserPrefix            = "system:node:"
	nodesGroup                = "system:nodes"
	anonymousUser             = "system:anonymous"
	unauthenticatedGroup      = "system:unauthenticated"
)

// Approver kinds: who an identity is, as far as approving goes.
const (
	ApproverPerson         = ""
	ApproverServiceAccount = "ServiceAccount"
	ApproverNotAPerson     = "not a person"
)

// ApproverKind says whether the identity of a request (its username and groups, as the API server
// authenticated them) is a person. A ServiceAccount is one by its username or by its groups: an
// impersonated or externally authenticated user that carries a ServiceAccount group under another
// username acts with a ServiceAccount's standing, so the groups alone are enough. Nodes and
// unauthenticated requests are never people. Every other identity is taken to be a person.
func ApproverKind(username string, groups []string) string {
	if strings.HasPrefix(username, serviceAccountUserPrefix) || slices.ContainsFunc(groups, func(g string) bool {
		return g == serviceAccountsGroup || strings.HasPrefix(g, serviceAccountGroupPrefix)
	}) {
		return ApproverServiceAccount
	}
	if username == anonymousUser || strings.HasPrefix(username, nodeUserPrefix) ||
		slices.Contains(groups, nodesGroup) || slices.Contains(groups, unauthenticatedGroup) {
		return ApproverNotAPerson
	}
	return ApproverPerson
}
