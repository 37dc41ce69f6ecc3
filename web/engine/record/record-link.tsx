import type { ReactNode } from 'react';

/**
 * A link to a record's page: a real link (a middle click or Ctrl+click opens a tab, a screen reader
 * says "link"), a plain click opens the page in place through `onOpen`.
 */
export function RecordLink({
  href,
  onOpen,
  children,
  label,
}: {
  href: string;
  onOpen: () => void;
  children: ReactNode;
  label?: string;
}) {
  return (
    <a
      href={href}
      className="text-primary underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-primary"
      aria-label={label}
      data-record-link={href}
      onClick={(e) => {
        if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
        e.preventDefault();
        onOpen();
      }}
    >
      {children}
    </a>
  );
}
