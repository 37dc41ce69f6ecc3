import {
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type ReactNode,
  type RefObject,
} from 'react';
import { createPortal } from 'react-dom';

export interface PopupMenuItem {
  key: string;
  label: ReactNode;
  onSelect: () => void;
  disabled?: boolean;
  danger?: boolean;
  /** Extra attributes for tests and styling hooks (data-action, data-command, …). */
  data?: Record<`data-${string}`, string | undefined>;
}

interface Props {
  items: readonly PopupMenuItem[];
  buttonLabel: string;
  buttonContent: ReactNode;
  buttonClassName: string;
  buttonTestId?: string;
  menuTestId?: string;
}

const MENU_WIDTH_MIN = 160;

/**
 * A button that opens a menu of commands, following the WAI-ARIA menu button pattern: Enter,
 * Space or ArrowDown opens it on its first item, ArrowUp on its last; arrows, Home and End move
 * between items, Escape closes and gives focus back, Tab or a click outside closes.
 *
 * A list shows one of these on each of its 100 rows, so while closed it is a single plain button:
 * no context, no floating-position machinery, no listeners. That is most of what drawing a page
 * of rows used to cost with a general-purpose menu component in every row.
 */
export function PopupMenu({ items, buttonLabel, buttonContent, buttonClassName, buttonTestId, menuTestId }: Props) {
  const [open, setOpen] = useState<null | 'first' | 'last'>(null);
  const button = useRef<HTMLButtonElement>(null);
  const menuId = useId();

  const close = useCallback((refocus: boolean) => {
    setOpen(null);
    if (refocus) button.current?.focus();
  }, []);

  return (
    <>
      <button
        ref={button}
        type="button"
        className={buttonClassName}
        aria-label={buttonLabel}
        aria-haspopup="menu"
        aria-expanded={open !== null}
        aria-controls={open !== null ? menuId : undefined}
        data-testid={buttonTestId}
        onClick={() => setOpen((o) => (o ? null : 'first'))}
        onKeyDown={(e) => {
          if (e.key === 'Escape' && open !== null) {
            e.preventDefault();
            e.stopPropagation();
            setOpen(null);
          } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
            e.preventDefault();
            setOpen(e.key === 'ArrowDown' ? 'first' : 'last');
          }
        }}
      >
        {buttonContent}
      </button>
      {open !== null && (
        <MenuList
          id={menuId}
          anchor={button}
          items={items}
          start={open}
          testId={menuTestId}
          label={buttonLabel}
          onClose={close}
        />
      )}
    </>
  );
}

function MenuList({
  id,
  anchor,
  items,
  start,
  testId,
  label,
  onClose,
}: {
  id: string;
  anchor: RefObject<HTMLButtonElement | null>;
  items: readonly PopupMenuItem[];
  start: 'first' | 'last';
  testId: string | undefined;
  label: string;
  onClose: (refocus: boolean) => void;
}) {
  const list = useRef<HTMLDivElement>(null);
  const [place, setPlace] = useState<{ top: number; left: number } | null>(null);

  const entries = () => [
    ...(list.current?.querySelectorAll<HTMLElement>('[role="menuitem"]:not([aria-disabled="true"])') ?? []),
  ];

  // Placed under the button's end edge, flipped above or moved in when the window has no room.
  useLayoutEffect(() => {
    const el = list.current;
    if (!el || !anchor.current) return;
    const a = anchor.current.getBoundingClientRect();
    const w = Math.max(el.offsetWidth, MENU_WIDTH_MIN);
    const h = el.offsetHeight;
    const left = Math.min(Math.max(4, a.right - w), window.innerWidth - w - 4);
    const below = a.bottom + 4;
    const top = below + h > window.innerHeight - 4 && a.top - h - 4 >= 4 ? a.top - h - 4 : below;
    setPlace({ top, left: Math.max(4, left) });
    // Only on opening: the menu stays where it opened.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // Focus once placed: a hidden menu cannot take focus.
  const placed = place !== null;
  useEffect(() => {
    const el = list.current;
    if (!placed || !el) return;
    const all = entries();
    // With every item disabled the menu itself takes focus, so Escape and Tab still work.
    const target = start === 'first' ? all[0] : all[all.length - 1];
    if (target) target.focus();
    else el.focus();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [placed]);

  // A click elsewhere, a scroll or a resize closes it: it would otherwise float away from its row.
  useEffect(() => {
    const away = (e: Event) => {
      const target = e.target as Node | null;
      if (target && (list.current?.contains(target) || anchor.current?.contains(target))) return;
      onClose(false);
    };
    const moved = (e: Event) => {
      if (e.target instanceof Node && list.current?.contains(e.target)) return;
      onClose(false);
    };
    document.addEventListener('pointerdown', away, true);
    window.addEventListener('scroll', moved, true);
    window.addEventListener('resize', moved);
    return () => {
      document.removeEventListener('pointerdown', away, true);
      window.removeEventListener('scroll', moved, true);
      window.removeEventListener('resize', moved);
    };
  }, [anchor, onClose]);

  const move = (step: number | 'home' | 'end') => {
    const all = entries();
    if (all.length === 0) return;
    const at = all.indexOf(document.activeElement as HTMLElement);
    const next = step === 'home' ? 0 : step === 'end' ? all.length - 1 : (at + step + all.length) % all.length;
    all[next]?.focus();
  };

  return createPortal(
    <div
      ref={list}
      id={id}
      role="menu"
      aria-label={label}
      tabIndex={-1}
      data-testid={testId}
      style={{
        position: 'fixed',
        top: place?.top ?? 0,
        left: place?.left ?? 0,
        visibility: place ? 'visible' : 'hidden',
      }}
      className="z-50 min-w-40 rounded-md border border-slate-200 bg-white py-1 shadow-lg focus:outline-none"
      onKeyDown={(e) => {
        const keys: Record<string, number | 'home' | 'end'> = { ArrowDown: 1, ArrowUp: -1, Home: 'home', End: 'end' };
        const step = keys[e.key];
        if (step !== undefined) {
          e.preventDefault();
          move(step);
        } else if (e.key === 'Escape') {
          e.preventDefault();
          e.stopPropagation();
          onClose(true);
        } else if (e.key === 'Tab') {
          e.preventDefault();
          onClose(true);
        }
      }}
    >
      {items.map((item) => (
        <button
          key={item.key}
          type="button"
          role="menuitem"
          tabIndex={-1}
          aria-disabled={item.disabled || undefined}
          className={`block w-full px-3 py-1.5 text-left text-sm focus:bg-slate-100 focus:outline-none aria-disabled:cursor-not-allowed aria-disabled:opacity-50 ${
            item.danger ? 'text-red-700' : 'text-slate-700'
          } ${item.disabled ? '' : 'hover:bg-slate-100'}`}
          onClick={() => {
            if (item.disabled) return;
            onClose(true);
            item.onSelect();
          }}
          {...item.data}
        >
          {item.label}
        </button>
      ))}
    </div>,
    document.body,
  );
}
