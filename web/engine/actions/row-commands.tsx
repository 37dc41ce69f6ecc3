import { useMemo, useRef } from 'react';
import { navigate } from 'wouter/use-browser-location';
import type { ActionDef, ListResource } from '#contract';
import type { LabelT } from '../../i18n/resources/index.js';
import { PopupMenu } from '../../ui/popup-menu.js';
import { rowActions } from './actions.js';
import { actionLabel } from '../shared/labels.js';
import type { Row } from '../shared/queries.js';

export interface RowCommand {
  key: string;
  label: string;
  onClick: () => void;
  danger?: boolean;
  /** Its call is under way: the command waits. */
  busy?: boolean;
  /** `data-action` of the control, for a named action. */
  action?: string;
  /** Why it cannot be used on this row: shown, and the command stays disabled. */
  refused?: string;
}

/** How many of a row's commands a table shows as buttons; the rest wait behind "⋯". */
export const INLINE_COMMANDS = 2;

const DANGER = 'border-red-300 text-red-700 hover:bg-red-50';
const buttonClass = (c: RowCommand) => `btn px-2 py-0.5 text-xs ${c.danger ? DANGER : ''}`;

/** A command as a button: waiting while its call is under way, refused with the reason said. */
export function CommandButton({
  command: c,
  className = `btn ${c.danger ? DANGER : ''}`,
}: {
  command: RowCommand;
  className?: string;
}) {
  return (
    <button
      type="button"
      className={className}
      onClick={c.onClick}
      disabled={c.busy || !!c.refused}
      aria-busy={c.busy || undefined}
      title={c.refused}
      data-action={c.action}
      data-command={c.key}
    >
      {c.label}
      {c.refused && <span className="sr-only">: {c.refused}</span>}
    </button>
  );
}

/** Commands as the items of a "⋯" menu, a refusal's reason under its label. */
export function commandMenuItems(commands: readonly RowCommand[]) {
  return commands.map((c) => ({
    key: c.key,
    label: (
      <>
        {c.label}
        {c.refused && <span className="block text-xs text-slate-500">{c.refused}</span>}
      </>
    ),
    onSelect: c.onClick,
    disabled: c.busy || !!c.refused,
    danger: c.danger,
    data: { 'data-action': c.action, 'data-command': c.key, 'data-refused': c.refused ? '' : undefined },
  }));
}

/**
 * A row's commands: the first `inline` as buttons, the others behind "⋯", so a row never needs
 * more width than a few buttons whatever its resource offers.
 */
export function RowCommands({
  commands,
  inline,
  t,
  name,
}: {
  commands: readonly RowCommand[];
  inline: number;
  t: LabelT;
  name: string;
}) {
  const shown = commands.slice(0, inline);
  const more = commands.slice(inline);
  return (
    <div className="flex items-center gap-1">
      {shown.map((c) => (
        <CommandButton key={c.key} command={c} className={buttonClass(c)} />
      ))}
      {more.length > 0 && (
        <PopupMenu
          buttonClassName="btn min-h-6 min-w-6 px-2 py-0.5 text-xs"
          buttonLabel={t('engine.moreActions', { name })}
          buttonContent="⋯"
          buttonTestId="row-more"
          menuTestId="row-menu"
          items={commandMenuItems(more)}
        />
      )}
    </div>
  );
}

export interface RowHandlers {
  detail: (row: Row) => void;
  /** Opens the record's page (its link in the row). */
  open: (row: Row) => void;
  edit: (row: Row) => void;
  remove: (row: Row) => void;
  action: (action: ActionDef, row: Row) => void;
}

/** A command that opens another screen about a row (an administrator's activity in the audit trail). */
export interface RowLink {
  key: string;
  label: (t: LabelT) => string;
  href: (row: Row) => string;
}

/** The commands a list screen offers its rows; the ones it leaves out are not offered at all. */
export interface ScreenRowCommands {
  detail?: (row: Row) => void;
  open?: (row: Row) => void;
  edit?: (row: Row) => void;
  remove?: (row: Row) => void;
  action: (action: ActionDef, row: Row) => void;
  links?: readonly RowLink[];
}

/** Which commands beside the actions a screen offers every row. */
export interface OfferedCommands {
  detail: boolean;
  edit: boolean;
  remove: boolean;
  links: readonly RowLink[];
}

const NO_LINKS: readonly RowLink[] = [];

export type StableRowHandlers = RowHandlers & { select: (id: string, on: boolean) => void };

/**
 * Row handlers that stay the same across renders but call the screen's latest ones (the screen
 * passes fresh closures every render), so a table row or card whose data did not change is not
 * rendered again on a busy/idle switch or a selection; and which commands are offered at all.
 */
export function useStableRowHandlers(
  commands: ScreenRowCommands,
  onSelect: (ids: string[], on: boolean) => void,
): { handlers: StableRowHandlers; has: OfferedCommands } {
  const latest = useRef({ commands, onSelect });
  latest.current = { commands, onSelect };
  const handlers = useMemo<StableRowHandlers>(
    () => ({
      detail: (row) => latest.current.commands.detail?.(row),
      open: (row) => latest.current.commands.open?.(row),
      edit: (row) => latest.current.commands.edit?.(row),
      remove: (row) => latest.current.commands.remove?.(row),
      action: (action, row) => latest.current.commands.action(action, row),
      select: (id, on) => latest.current.onSelect([id], on),
    }),
    [],
  );
  const hasDetail = !!commands.detail;
  const hasEdit = !!commands.edit;
  const hasRemove = !!commands.remove;
  const links = commands.links ?? NO_LINKS;
  const has = useMemo(
    () => ({ detail: hasDetail, edit: hasEdit, remove: hasRemove, links }),
    [hasDetail, hasEdit, hasRemove, links],
  );
  return { handlers, has };
}

/**
 * What can be done to one row, most used first (so the first two are the ones a table shows as
 * buttons): the actions that move money, details, edit, the other actions, the other screens
 * about it, delete.
 */
export function buildRowCommands(
  resource: ListResource,
  row: Row,
  has: OfferedCommands,
  handlers: RowHandlers,
  t: LabelT,
  waiting: readonly string[],
  self = '',
  /** A held call on this row (heldMark): its action waits, or asks this administrator to confirm it. */
  held = '',
): RowCommand[] {
  const list: RowCommand[] = [];
  // The signed-in administrator's own row: what would lock them out is offered, disabled, saying why.
  const own = !!resource.selfField && self !== '' && row[resource.selfField] === self;
  const refusedOwn = own ? t('engine.notOnYourself') : undefined;
  const actions = rowActions(resource, row);
  const money = actions.filter((a) => a.money);
  const hold = parseHeldMark(held);
  const push = (a: ActionDef) => {
    const onHold = hold?.action === a.name;
    list.push({
      key: `action:${a.name}`,
      // Someone else's hold is confirmed from here (the screen opens its confirmation); one's own waits.
      label: onHold && !hold.mine ? t('approvals.confirmRow') : actionLabel(t, a.name),
      onClick: () => handlers.action(a, row),
      danger: a.destructive,
      busy: waiting.includes(a.name),
      action: a.name,
      refused: onHold && hold.mine ? t('approvals.waiting') : a.destructive ? refusedOwn : undefined,
    });
  };
  money.forEach(push);
  if (has.detail) list.push({ key: 'detail', label: t('engine.details'), onClick: () => handlers.detail(row) });
  if (has.edit) list.push({ key: 'edit', label: t('engine.edit'), onClick: () => handlers.edit(row) });
  actions.filter((a) => !a.money).forEach(push);
  for (const link of has.links) {
    const href = link.href(row);
    list.push({ key: `link:${link.key}`, label: link.label(t), onClick: () => navigate(href) });
  }
  if (has.remove)
    list.push({
      key: 'remove',
      label: t('engine.delete'),
      onClick: () => handlers.remove(row),
      danger: true,
      refused: refusedOwn,
    });
  return list;
}

/**
 * A row's held call in one string, so memoised rows compare it cheaply: `mine:approve` (this
 * administrator made it) or `other:approve` (theirs to confirm); '' for none.
 */
export function heldMark(hold: { mine: boolean; action: string | null } | undefined): string {
  return hold?.action ? `${hold.mine ? 'mine' : 'other'}:${hold.action}` : '';
}

function parseHeldMark(mark: string): { mine: boolean; action: string } | null {
  const at = mark.indexOf(':');
  return at < 0 ? null : { mine: mark.slice(0, at) === 'mine', action: mark.slice(at + 1) };
}

/** Every held row's mark (heldMark), by record id, from the holds by the record they name. */
export function heldMarks(
  byTarget: ReadonlyMap<string, { mine: boolean; action: string | null }>,
): Map<string, string> {
  return new Map([...byTarget].map(([id, hold]) => [id, heldMark(hold)]));
}

/** The action names of `running` (keys `name:id`) whose call is about this one row. */
export function runningOn(running: ReadonlySet<string>, id: string): string {
  const names: string[] = [];
  for (const key of running) {
    const at = key.lastIndexOf(':');
    if (key.slice(at + 1) === id) names.push(key.slice(0, at));
  }
  return names.join(',');
}

/** The line a held row shows above its commands. */
export function HeldChip({ mark, t }: { mark: string; t: LabelT }) {
  if (!mark) return null;
  return (
    <span
      className="mb-1 block text-xs font-medium whitespace-normal text-amber-700"
      data-testid="held-chip"
      data-held={mark}
    >
      {t('approvals.waiting')}
    </span>
  );
}
