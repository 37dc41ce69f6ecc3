import { useSignals } from '@preact/signals-react/runtime';
import { Link } from 'wouter';
import { breadcrumbFor } from '../menu.js';
import { useT } from '../../i18n/index.js';
import { listUrl, recordTitle, returnToList } from '../../lib/record-nav.js';

// A line 24 px tall whatever the size setting: on a phone the crumbs are cut short and sit close, and a shorter
// link is too small a target to hit.
const linkClass = 'inline-block leading-[24px] text-slate-700 hover:text-primary';

export function Breadcrumb({ path }: { path: string }) {
  useSignals();
  const t = useT();
  const crumbs = breadcrumbFor(path);
  const named = recordTitle.value;
  return (
    // Not on a phone: beside the header's buttons the trail would be cut to a few letters, and the
    // page's own heading already says where one is.
    <nav aria-label={t('nav.breadcrumb')} className="hidden min-w-0 sm:block" data-testid="breadcrumb">
      <ol className="flex items-center gap-1 truncate text-sm">
        {crumbs.map((c, i) => (
          <li key={`${c.title}-${i}`} className="flex items-center gap-1 truncate">
            {i > 0 && (
              <span className="text-slate-400" aria-hidden="true">
                /
              </span>
            )}
            {c.list && c.path ? (
              // Back to the list as it was left (page, filters, scroll), not to its first page.
              <a
                href={listUrl(c.path)}
                className={linkClass}
                onClick={(e) => {
                  if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
                  e.preventDefault();
                  returnToList(c.path!);
                }}
              >
                {t(c.title)}
              </a>
            ) : c.path ? (
              <Link href={c.path} className={linkClass}>
                {t(c.title)}
              </Link>
            ) : (
              <span
                className="text-slate-500"
                aria-current={i === crumbs.length - 1 ? 'page' : undefined}
                data-crumb-record={c.record}
              >
                {c.record ? (named?.path === path ? named.name : `#${c.record}`) : t(c.title)}
              </span>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}
