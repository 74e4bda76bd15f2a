package gateway

import (
	"context"
	"errors"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/policy"
	"github.com/toolgate/toolgate/internal/safety"
)

// planRules are the engine's checks that depend on the tool (its pinned capabilities) and the
// locked plan alone: steps 1 to 5 of its order (safety.Evaluate), which run before any check of
// what a call carries, so a call they refuse is refused whatever its sandbox, approval, cost,
// step or arguments. A tool they refuse is one the caller's plan can never use: a writer in a
// read-only plan or under a read-only profile, a tool on the deny-list or off the allow-list, a
// writer that cannot checkpoint where checkpoints are required (by the profile or the plan), an
// unsafe tool where the profile forbids them, and a tool whose skill category (or lack of one)
// the profile excludes. The later checks (sandbox, approval, cost, retries, arguments, loops)
// depend on the call or on usage that changes, so a tool they refuse now may be used later.
// One check of the arguments step belongs here too: under the project's writeRoots, a tool
// registered to execute or dispatch is refused write-root-execute whatever its call carries
// (its class is the registry's; an argumentless call reaches the rule only by that class, and
// every call of such a tool is refused by it or earlier).
var planRules = map[string]bool{
	safety.RuleReadOnlyPlan: true, safety.RuleReadOnlyProfile: true,
	safety.RuleDenyList: true, safety.RuleAllowList: true,
	safety.RuleRequireCheckpoints: true,
	safety.RuleUnsafeTool:         true,
	safety.RuleSkillCategory:      true, safety.RuleNoSkillCategory: true,
	safety.RuleWriteRootExecute: true,
}

// plannedTools filters a tools/list answer down to the tools the caller's plan could use, by the
// engine's own checks on the plan's locked snapshot. It runs only for tools/list, so a tools/call
// pays nothing for it. A caller whose plan is not locked yet sees every offered tool (its calls
// are refused PlanNotLocked); a caller with no plan, or whose plan has ended, sees none.
func (g *Gateway) plannedTools(registered map[string]route) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			res, err := next(ctx, method, req)
			list, ok := res.(*mcp.ListToolsResult)
			if method != "tools/list" || err != nil || !ok {
				return res, err
			}
			caller, ok := callerOf(req.GetExtra().TokenInfo)
			if !ok {
				list.Tools = nil
				return list, nil
			}
			usable, err := g.usableTools(ctx, caller)
			if err != nil {
				return nil, err
			}
			if usable == nil { // not locked yet
				return list, nil
			}
			kept := list.Tools[:0]
			for _, t := range list.Tools {
				if _, served := registered[t.Name]; served && usable(t.Name) {
					kept = append(kept, t)
				}
			}
			list.Tools = kept
			return list, nil
		}
	}
}

// usableTools returns whether the caller's plan could use a tool; nil when its plan is not
// locked yet.
func (g *Gateway) usableTools(ctx context.Context, caller *Caller) (func(tool string) bool, error) {
	name, err := g.opts.ResolvePlan(ctx, g.opts.Reader, caller)
	if _, none := errors.AsType[*NoPlanError](err); none {
		return func(string) bool { return false }, nil
	} else if err != nil {
		return nil, err
	}
	plan := &safetyv1alpha1.AgentPlan{}
	if err := g.opts.Reader.Get(ctx, client.ObjectKey{Namespace: caller.Namespace, Name: name}, plan); err != nil {
		return nil, err
	}
	// An ended plan (past its deadline, or being deleted) admits nothing: every call of it is
	// refused PlanExpired, by the rule the webhook applies (policy.PlanActive). Its snapshot is
	// still there, and would list what the plan could use before it ended.
	if !policy.PlanActive(plan, time.Now()) {
		return func(string) bool { return false }, nil
	}
	if plan.Status.Snapshot == nil {
		return nil, nil
	}
	compiled, err := g.policies.Get(plan.Status.Snapshot)
	if err != nil {
		return nil, err
	}
	return func(tool string) bool {
		at := &safetyv1alpha1.AgentTool{}
		if err := g.opts.Reader.Get(ctx, client.ObjectKey{Name: tool}, at); err != nil {
			return false
		}
		call := &safetyv1alpha1.AgentToolCall{ObjectMeta: metav1.ObjectMeta{Namespace: plan.Namespace},
			Spec: safetyv1alpha1.AgentToolCallSpec{Plan: plan.Name, Tool: tool}}
		d := safety.Evaluate(compiled.Engine, policy.EngineCall(call, plan, policy.ToolAsPinned(plan, at), policy.CallFacts{}))
		return d.Allowed() || !planRules[d.RuleID]
	}, nil
}
