import { useLayoutEffect, useState, type ReactNode } from 'react';

/**
 * Where a dialog about one record goes: beside the record, never over it. The record (a table
 * row, a phone's card) stays undimmed and outlined while the question about it is open, so what is
 * approved or banned can be read where it was clicked, and the dialog names it as well.
 */

/** The element showing the record the dialog is about, looked up when the dialog opens. */
export type Anchor = () => HTMLElement | null;

export interface Band {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

export interface Placement {
  /** Which side of the record the dialog sits on. */
  side: 'above' | 'below';
  /** The dialog's region, as insets from the top and the bottom of the window (px). */
  region: { top: number; bottom: number };
  /** The record's box in the window, left clear of the dimming. */
  band: Band;
}

/** Room under which a dialog beside a record would be cramped: the record is scrolled up first. */
export function roomNeeded(viewportHeight: number): number {
  return Math.min(420, Math.round(viewportHeight * 0.5));
}

const GAP = 8;

/** The side with more room, and the region there; null when neither side leaves `roomNeeded`. */
export function placeBeside(band: Band, viewport: { width: number; height: number }): Placement | null {
  const above = band.top - GAP;
  const below = viewport.height - band.bottom - GAP;
  if (Math.max(above, below) < roomNeeded(viewport.height)) return null;
  const clipped = { ...band, left: Math.max(0, band.left), right: Math.min(viewport.width, band.right) };
  return below >= above
    ? { side: 'below', region: { top: band.bottom + GAP, bottom: 0 }, band: clipped }
    : { side: 'above', region: { top: 0, bottom: viewport.height - band.top + GAP }, band: clipped };
}

function measure(anchor: Anchor, scroll: boolean): Placement | null {
  const el = anchor();
  if (!el) return null;
  const viewport = { width: window.innerWidth, height: window.innerHeight };
  const box = () => {
    const r = el.getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, left: r.left, right: r.right };
  };
  // A record cut off by the window's edge (its menu was reached with part of it scrolled away) is
  // brought wholly into view first: the question is about all of it, and the ring must show it.
  if (scroll) {
    const cut = box();
    if (cut.top < 0 || cut.bottom > viewport.height) el.scrollIntoView({ block: 'nearest' });
  }
  const first = placeBeside(box(), viewport);
  if (first || !scroll) return first;
  // Not enough room either side: bring the record to the top (below the fixed header, as the
  // page's scroll padding says) and put the dialog under it.
  el.scrollIntoView({ block: 'start' });
  const band = box();
  return {
    side: 'below',
    region: { top: band.bottom + GAP, bottom: 0 },
    band: { ...band, left: Math.max(0, band.left), right: Math.min(viewport.width, band.right) },
  };
}

/** Where the open dialog goes for `anchor`; null without one (the dialog then takes its usual place). */
export function useAnchorPlacement(open: boolean, anchor: Anchor | undefined): Placement | null {
  const [placement, setPlacement] = useState<Placement | null>(null);
  useLayoutEffect(() => {
    if (!open || !anchor) {
      setPlacement(null);
      return;
    }
    setPlacement(measure(anchor, true));
    const again = () => setPlacement(measure(anchor, false));
    window.addEventListener('resize', again);
    return () => window.removeEventListener('resize', again);
    // The anchor function is new each render; the opening decides.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);
  return open ? placement : null;
}

/**
 * A modal's backdrop and frame. Placed beside a record it dims everything but that record and sits
 * in the room above or below it; otherwise it is `fallback`'s usual frame (a bottom sheet or a full
 * screen on a phone, centred on wider screens).
 */
export function DialogFrame({
  placement,
  fallback,
  children,
}: {
  placement: Placement | null;
  fallback: string;
  children: ReactNode;
}) {
  if (!placement) {
    return (
      <>
        <div className="fixed inset-0 bg-black/30" aria-hidden="true" />
        <div className={fallback}>{children}</div>
      </>
    );
  }
  const { band, region, side } = placement;
  const dim = 'fixed bg-black/30';
  return (
    <>
      {/* The whole window is still covered (clear over the record): a click anywhere outside the
          dialog is one, and tools that test points on screen see a modal over the page. */}
      <div className="fixed inset-0" aria-hidden="true" />
      <div className={`${dim} inset-x-0 top-0`} style={{ height: Math.max(0, band.top) }} aria-hidden="true" />
      <div className={`${dim} inset-x-0 bottom-0`} style={{ top: band.bottom }} aria-hidden="true" />
      <div
        className={`${dim} left-0`}
        style={{ top: band.top, height: band.bottom - band.top, width: band.left }}
        aria-hidden="true"
      />
      <div
        className={`${dim} right-0`}
        style={{ top: band.top, height: band.bottom - band.top, left: band.right }}
        aria-hidden="true"
      />
      <div
        className="pointer-events-none fixed rounded-sm ring-2 ring-primary"
        style={{ top: band.top, left: band.left, width: band.right - band.left, height: band.bottom - band.top }}
        aria-hidden="true"
        data-testid="dialog-anchor"
      />
      <div
        className={`fixed inset-x-0 flex justify-center px-3 sm:px-4 ${side === 'below' ? 'items-start' : 'items-end'}`}
        style={{ top: region.top, bottom: region.bottom }}
        data-placement={side}
      >
        {children}
      </div>
    </>
  );
}
