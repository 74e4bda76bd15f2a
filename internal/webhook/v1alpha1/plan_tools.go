package v1alpha1

import (
	"context"
	"errors"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/clock"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/policy"
)

// maxPinAttempts bounds the optimistic-concurrency retries of one pin. Each conflict means another
// writer (a replica pinning, the controller counting) changed the plan first; the pin is then
// re-read, and is usually already there.
const maxPinAttempts = 10

// toolPinner pins a tool's capabilities into a plan's status at the plan's first use of it. It
// reads the plan live and writes with a resourceVersion precondition, so whichever replica writes
// first wins, and every other one, conflicting, re-reads and uses the winner's pin: a plan sees
// exactly one set of capabilities per tool per lock.
type toolPinner struct {
	live   client.Reader
	writer client.StatusClient
	clock  clock.PassiveClock
}

// errToolReplaced says the AgentTool the plan pinned was deleted and another created under its name.
var errToolReplaced = errors.New("replaced")

// toolView is the tool as plan sees it: its pinned capabilities when it has used the tool before,
// otherwise the registry's, pinned now. A dry run pins nothing. The tool must still be
// registered: deleting an AgentTool withdraws it from every plan.
func (h *AgentToolCallHandler) toolView(ctx context.Context, plan *safetyv1alpha1.AgentPlan, tool *safetyv1alpha1.AgentTool,
	dryRun bool) (*safetyv1alpha1.AgentTool, error) {
	if pin := policy.PinnedTool(plan, tool.Name); pin != nil && pin.UID != "" && pin.UID != string(tool.UID) {
		return nil, errToolReplaced
	}
	if policy.PinnedTool(plan, tool.Name) != nil || h.pins == nil || dryRun {
		return policy.ToolAsPinned(plan, tool), nil
	}
	current, err := h.pins.pin(ctx, plan, tool)
	if err != nil {
		return nil, err
	}
	return policy.ToolAsPinned(current, tool), nil
}

// pin returns the plan, read live, holding the tool's pin: this writer's, or the first writer's.
func (p *toolPinner) pin(ctx context.Context, plan *safetyv1alpha1.AgentPlan, tool *safetyv1alpha1.AgentTool) (*safetyv1alpha1.AgentPlan, error) {
	current := &safetyv1alpha1.AgentPlan{}
	for range maxPinAttempts {
		if err := p.live.Get(ctx, client.ObjectKeyFromObject(plan), current); err != nil {
			return nil, fmt.Errorf("reading plan %s to pin tool %s: %w", plan.Name, tool.Name, err)
		}
		if current.UID != plan.UID || current.Status.Snapshot == nil {
			return nil, fmt.Errorf("plan %s was replaced or unlocked while tool %s was being pinned", plan.Name, tool.Name)
		}
		if policy.PinnedTool(current, tool.Name) != nil {
			return current, nil
		}
		if len(current.Status.Tools) >= safetyv1alpha1.MaxPinnedTools {
			return nil, fmt.Errorf("plan %s already uses %d tools, the most one plan may", plan.Name, len(current.Status.Tools))
		}
		before := current.DeepCopy()
		pin := safetyv1alpha1.PinnedTool{
			Name: tool.Name, UID: string(tool.UID), Generation: tool.Generation,
			Writes: tool.Spec.Writes, Unsafe: tool.Spec.Unsafe, Checkpointable: tool.Spec.Checkpointable,
			ActionClass: tool.Spec.ActionClass, SkillCategory: tool.Spec.SkillCategory, CostPerCall: tool.Spec.CostPerCall,
			MaxCostPerCall: tool.Spec.MaxCostPerCall, PinnedAt: metav1.NewTime(p.clock.Now()), Epoch: current.Status.Snapshot.Epoch,
		}
		current.Status.Tools = append(current.Status.Tools, pin)
		err := p.writer.Status().Patch(ctx, current, client.MergeFromWithOptions(before, client.MergeFromWithOptimisticLock{}))
		if err == nil {
			return current, nil
		}
		if !apierrors.IsConflict(err) {
			return nil, fmt.Errorf("pinning tool %s in plan %s: %w", tool.Name, plan.Name, err)
		}
		current = &safetyv1alpha1.AgentPlan{}
	}
	return nil, fmt.Errorf("pinning tool %s in plan %s: still conflicting after %d attempts", tool.Name, plan.Name, maxPinAttempts)
}
