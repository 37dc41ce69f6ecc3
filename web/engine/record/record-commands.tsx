import type { LabelT } from '../../i18n/resources/index.js';
import { PopupMenu } from '../../ui/popup-menu.js';
import { useNarrow } from '../../ui/use-narrow.js';
import { CommandButton, commandMenuItems, type RowCommand } from '../actions/row-commands.js';

/** On a phone the first two commands stay buttons and the rest wait behind "⋯", as on a list's card. */
const NARROW_INLINE = 2;

/**
 * The commands of a record's page: the ones its list row offers (same order, same refusals), as
 * full-size buttons beside the record's name.
 */
export function RecordCommandBar({ commands, t, name }: { commands: readonly RowCommand[]; t: LabelT; name: string }) {
  const narrow = useNarrow();
  const inline = narrow ? commands.slice(0, NARROW_INLINE) : commands;
  const more = narrow ? commands.slice(NARROW_INLINE) : [];
  return (
    <div
      className="flex flex-wrap items-center gap-2"
      role="group"
      aria-label={t('engine.actions')}
      data-testid="record-commands"
    >
      {inline.map((c) => (
        <CommandButton key={c.key} command={c} />
      ))}
      {more.length > 0 && (
        <PopupMenu
          buttonClassName="btn min-w-9"
          buttonLabel={t('engine.moreActions', { name })}
          buttonContent="⋯"
          buttonTestId="record-more"
          menuTestId="record-menu"
          items={commandMenuItems(more)}
        />
      )}
    </div>
  );
}
