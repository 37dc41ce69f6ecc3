import { memo, useEffect, useState } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { Link } from 'wouter';
import { Menu, MenuButton, MenuItem, MenuItems } from '@headlessui/react';
import type { MenuItem as Item } from '../menu.js';
import { openGroupFor } from '../menu.js';
import { device, sidebarLogo, sidebarOpened, closeSidebar } from '../../lib/settings.js';
import { useQueryClient } from '@tanstack/react-query';
import { backendOffer, siteConfig } from '../../api/session.js';
import { prefetchScreen } from './prefetch-screen.js';
import { language } from '../../lib/settings.js';
import { useT } from '../../i18n/index.js';
import { Icon, UiIcon } from '../../ui/icons.js';
import { Logo } from '../../ui/logo.js';
import { WithdrawalBadge } from './withdrawal-badge.js';

export const SIDEBAR_WIDTH = 210;

/**
 * A menu entry wraps onto a second line rather than being cut short ("Complaints and sugge…",
 * Spanish's longer names): at 210 px the words must all be read to tell entries apart. A word
 * wider than the menu (none today) may still break.
 */
const LABEL = 'min-w-0 break-words';
export const SIDEBAR_COLLAPSED_WIDTH = 54;

function Badge({ item, dot, show }: { item: Item; dot?: boolean; show: boolean }) {
  return show && item.badge === 'withdrawal' ? <WithdrawalBadge dot={dot} /> : null;
}

/** Memoised: the frame draws again with every change of the address, and the menu shows none of the query. */
export const Sidebar = memo(function Sidebar({
  menu,
  path,
  showBadge,
}: {
  menu: Item[];
  path: string;
  showBadge: boolean;
}) {
  useSignals();
  const t = useT();
  const mobile = device.value === 'mobile';
  const opened = sidebarOpened.value;
  const collapsed = !mobile && !opened;
  const [openKey, setOpenKey] = useState<string | null>(() => openGroupFor(menu, path));

  useEffect(() => {
    const key = openGroupFor(menu, path);
    if (key) setOpenKey(key);
  }, [menu, path]);

  // Choosing a screen on a phone gets the menu out of the way.
  const onNavigate = () => {
    if (mobile) closeSidebar(false);
  };
  // The press on an entry, before its click: a list screen's page is sent for then.
  const client = useQueryClient();
  const onPress = (e: React.PointerEvent<HTMLElement>) => {
    if (e.button !== 0) return;
    const href = (e.target as Element).closest('a[href]')?.getAttribute('href');
    if (href) prefetchScreen(client, href, backendOffer.peek());
  };

  const name = siteConfig.value?.chatRoomName ?? '';
  const label = `${name}${name && language.value !== 'zh' ? ' ' : ''}${t('app.backend')}`;
  const width = collapsed ? SIDEBAR_COLLAPSED_WIDTH : SIDEBAR_WIDTH;
  const hiddenOnMobile = mobile && !opened;

  const linkClass = (active: boolean) =>
    `flex min-h-12 items-center gap-3 px-4 py-2 text-sm leading-snug transition-colors hover:bg-slate-900/60 focus-visible:bg-slate-900/60 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-primary ${
      active ? 'text-primary bg-slate-900/40' : 'text-slate-200'
    }`;

  return (
    <aside
      data-palette="fixed"
      data-testid="sidebar"
      data-state={hiddenOnMobile ? 'hidden' : collapsed ? 'collapsed' : 'open'}
      aria-label={t('nav.mainMenu')}
      inert={hiddenOnMobile}
      className={`fixed inset-y-0 left-0 z-40 flex flex-col overflow-x-hidden bg-slate-800 transition-[width,transform] duration-200 ${
        hiddenOnMobile ? '-translate-x-full' : 'translate-x-0'
      }`}
      style={{ width }}
    >
      {sidebarLogo.value && (
        <Link
          href="/"
          className="flex h-[50px] shrink-0 items-center gap-2 overflow-hidden bg-slate-900 px-3 text-white"
          onClick={onNavigate}
        >
          <Logo
            path={siteConfig.value?.logoIconPath ?? siteConfig.value?.webIconPath}
            alt=""
            className="h-8 w-8 shrink-0"
          />
          {!collapsed && (
            <span className="line-clamp-2 text-sm leading-tight font-semibold break-words" data-testid="sidebar-title">
              {label}
            </span>
          )}
        </Link>
      )}
      <nav className="flex-1 overflow-y-auto overflow-x-hidden" onPointerDown={onPress}>
        <ul role="list" data-testid="menu">
          {menu.map((item) => {
            if (!item.children) {
              return (
                <li key={item.key}>
                  <Link
                    href={item.path!}
                    className={linkClass(path === item.path)}
                    aria-current={path === item.path ? 'page' : undefined}
                    title={collapsed ? t(item.title) : undefined}
                    data-menu-path={item.path}
                    onClick={onNavigate}
                  >
                    {item.icon && <Icon name={item.icon} className="relative h-5 w-5 shrink-0" />}
                    {!collapsed && <span className={LABEL}>{t(item.title)}</span>}
                    {!collapsed && <Badge item={item} show={showBadge} />}
                  </Link>
                </li>
              );
            }
            const active = item.children.some((c) => c.path === path);
            if (collapsed) {
              return (
                <li key={item.key}>
                  <Menu>
                    <MenuButton
                      className={`${linkClass(active)} relative w-full`}
                      aria-label={t(item.title)}
                      title={t(item.title)}
                      data-menu-group={item.key}
                    >
                      {item.icon && <Icon name={item.icon} className="h-5 w-5 shrink-0" />}
                      <Badge item={item} dot show={showBadge} />
                    </MenuButton>
                    <MenuItems
                      anchor="right start"
                      data-palette="fixed"
                      className="z-50 min-w-48 rounded-md bg-slate-800 py-1 shadow-lg focus:outline-none"
                    >
                      {item.children.map((c) => (
                        <MenuItem key={c.key}>
                          <Link
                            href={c.path!}
                            className={`${linkClass(path === c.path)} data-[focus]:bg-slate-900/60`}
                            data-menu-path={c.path}
                          >
                            <span className={LABEL}>{t(c.title)}</span>
                            <Badge item={c} show={showBadge} />
                          </Link>
                        </MenuItem>
                      ))}
                    </MenuItems>
                  </Menu>
                </li>
              );
            }
            const open = openKey === item.key;
            const panelId = `submenu-${item.key.replace(/\W/g, '')}`;
            return (
              <li key={item.key}>
                <button
                  type="button"
                  className={`${linkClass(active && !open)} w-full`}
                  aria-expanded={open}
                  aria-controls={panelId}
                  data-menu-group={item.key}
                  onClick={() => setOpenKey(open ? null : item.key)}
                >
                  {item.icon && <Icon name={item.icon} className="h-5 w-5 shrink-0" />}
                  <span className={`${LABEL} text-left`}>{t(item.title)}</span>
                  <Badge item={item} show={showBadge && !open} />
                  <UiIcon
                    name="down"
                    className={`ml-auto h-4 w-4 shrink-0 transition-transform ${open ? 'rotate-180' : ''}`}
                  />
                </button>
                <ul id={panelId} role="list" hidden={!open} className="bg-slate-900/30">
                  {item.children.map((c) => (
                    <li key={c.key}>
                      <Link
                        href={c.path!}
                        className={`${linkClass(path === c.path)} pl-12`}
                        aria-current={path === c.path ? 'page' : undefined}
                        data-menu-path={c.path}
                        onClick={onNavigate}
                      >
                        <span className={LABEL}>{t(c.title)}</span>
                        <Badge item={c} show={showBadge} />
                      </Link>
                    </li>
                  ))}
                </ul>
              </li>
            );
          })}
        </ul>
      </nav>
    </aside>
  );
});
