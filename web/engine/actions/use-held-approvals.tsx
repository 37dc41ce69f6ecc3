import { useMemo } from 'react';
import type { ActionDef } from '#contract';
import type { LabelT } from '../../i18n/resources/index.js';
import { toast } from '../../lib/toast.js';
import type { ActionContextRenderer, Described } from './action-context.js';
import { useHolds } from './approvals.js';
import { HeldApprovalsPanel, useHoldDialogs, type HeldRuleCheck } from './held-approvals.js';
import { heldMarks } from './row-commands.js';

interface Options {
  /** Whether this screen's calls can be held at all; none are asked for otherwise. */
  enabled?: boolean;
  /** Shown in a held money action's confirmation, under the records. */
  context?: ActionContextRenderer | undefined;
  /** What a held settings save is checked against before it is confirmed. */
  ruleCheck?: HeldRuleCheck;
}

/**
 * A screen's held calls (two-person approval) in one piece: the panel that lists them, the
 * dialogs that confirm or decline them, each held row's mark, and what a row action does on a row
 * a hold waits on. A list and a settings screen show holds the same way because both take it here.
 */
export function useHeldApprovals(resource: Described, t: LabelT, { enabled = true, context, ruleCheck }: Options = {}) {
  const holds = useHolds(resource.id, enabled);
  const dialogs = useHoldDialogs(resource, t, context, ruleCheck);
  const held = useMemo(() => heldMarks(holds.byTarget), [holds.byTarget]);

  /**
   * Whether a row action is taken over by the hold waiting on its row: someone else's is
   * confirmed from here, one's own only waits. False when no hold of that action waits there.
   */
  const takesOver = (action: ActionDef, rowId: string): boolean => {
    const hold = holds.byTarget.get(rowId);
    if (!hold || hold.action !== action.name) return false;
    if (hold.mine) toast.info(t('approvals.waiting'));
    else dialogs.askConfirm(hold);
    return true;
  };

  const panel = (
    <HeldApprovalsPanel
      holds={holds.holds}
      failed={holds.failed}
      resource={resource}
      t={t}
      onConfirm={dialogs.askConfirm}
      onDecline={dialogs.askDecline}
    />
  );
  return { held, takesOver, panel, dialogs: dialogs.dialogs };
}
