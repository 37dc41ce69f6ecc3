import { useEffect, useState } from 'react';
import { navigate } from 'wouter/use-browser-location';
import { useT } from '../i18n/index.js';
import { ConfirmDialog } from '../ui/confirm-dialog.js';

/** A plain left click on a link of this origin that the router would follow. */
function internalLink(event: MouseEvent): HTMLAnchorElement | null {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return null;
  const anchor = (event.target as Element | null)?.closest?.('a[href]');
  if (!(anchor instanceof HTMLAnchorElement) || (anchor.target && anchor.target !== '_self') || anchor.hasAttribute('download')) return null;
  const url = new URL(anchor.href, location.href);
  if (url.origin !== location.origin) return null;
  if (url.pathname === location.pathname && url.search === location.search) return null;
  return anchor;
}

/**
 * Warns before unsaved changes are lost: the browser's own prompt on reload or tab close, and a
 * confirmation for links inside the console (menu, breadcrumb, tabs). The click is caught on the
 * document's capture phase, before the router's handler runs.
 */
export function LeaveGuard({ dirty }: { dirty: boolean }) {
  const t = useT();
  const [target, setTarget] = useState<string | null>(null);

  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = '';
    };
    const onClick = (event: MouseEvent) => {
      const anchor = internalLink(event);
      if (!anchor) return;
      event.preventDefault();
      event.stopPropagation();
      const url = new URL(anchor.href, location.href);
      setTarget(url.pathname + url.search + url.hash);
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    document.addEventListener('click', onClick, true);
    return () => {
      window.removeEventListener('beforeunload', onBeforeUnload);
      document.removeEventListener('click', onClick, true);
    };
  }, [dirty]);

  return (
    <ConfirmDialog
      open={target !== null}
      text={t('deploy.leaveConfirm')}
      onCancel={() => setTarget(null)}
      onConfirm={() => {
        const to = target;
        setTarget(null);
        if (to) navigate(to);
      }}
    />
  );
}
