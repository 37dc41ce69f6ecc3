/**
 * A figure shortened to fit a card (¥734.4k) whose exact value (¥734,400.00) shows on hover and on
 * keyboard focus: nobody approves or reports a payout from "734.4k". Screen readers hear the exact
 * value only. A figure that is not shortened is plain text and no tab stop.
 */
export function ShortFigure({ short, exact }: { short: string; exact: string }) {
  if (short === exact) return <span data-figure={exact}>{exact}</span>;
  return (
    <span
      // A tab stop: the exact value must be reachable without a mouse.
      tabIndex={0}
      className="group relative inline-block rounded focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary"
      data-figure={exact}
    >
      <span aria-hidden="true">{short}</span>
      <span className="sr-only">{exact}</span>
      <span
        aria-hidden="true"
        data-testid="exact-figure"
        className="pointer-events-none absolute top-full left-0 z-10 mt-1 hidden rounded bg-slate-900 px-2 py-1 text-sm font-normal whitespace-nowrap text-white shadow-lg group-hover:block group-focus:block"
      >
        {exact}
      </span>
    </span>
  );
}
