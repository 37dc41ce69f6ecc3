import { useEffect, useState } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { memo } from 'react';
import { Link } from 'wouter';
import { navigate } from 'wouter/use-browser-location';
import { Menu, MenuButton, MenuItem, MenuItems } from '@headlessui/react';
import { Breadcrumb } from './breadcrumb.js';
import { HeaderSearch } from './header-search.js';
import type { Unoffered } from '../routes.js';
import { REDIRECT_PREFIX } from '../navigation.js';
import { loginUrl } from '../../lib/login-redirect.js';
import { accountInitial, accountName, logout, session } from '../../api/session.js';
import {
  SIZES,
  language,
  setLanguage,
  showSettings,
  size,
  sidebarOpened,
  toggleSidebar,
  type Size,
} from '../../lib/settings.js';
import { toast } from '../../lib/toast.js';
import { useT, type MessageKey } from '../../i18n/index.js';
import { LANGUAGES, LANGUAGE_NAMES } from '../../lib/language.js';
import { webClientUrl } from '../../lib/format.js';
import { UiIcon } from '../../ui/icons.js';
import { confirmLeave, hasUnsavedChanges } from '../../lib/leave-guard.js';

const menuItems =
  'absolute right-0 z-50 mt-2 min-w-40 rounded-md bg-white py-1 shadow-lg ring-1 ring-black/5 focus:outline-none';
const menuItem =
  'block w-full px-4 py-2 text-left text-sm text-slate-700 data-[focus]:bg-primary/10 data-[disabled]:text-primary data-[disabled]:font-semibold';

function FullscreenToggle() {
  const t = useT();
  const [full, setFull] = useState(() => !!document.fullscreenElement);
  useEffect(() => {
    const on = () => setFull(!!document.fullscreenElement);
    document.addEventListener('fullscreenchange', on);
    return () => document.removeEventListener('fullscreenchange', on);
  }, []);
  const label = full ? t('nav.exitFullscreen') : t('nav.fullscreen');
  return (
    <button
      type="button"
      // A phone's browser is full screen already, or refuses it: the button would only take room.
      className="nav-btn max-sm:hidden"
      aria-label={label}
      title={label}
      data-testid="fullscreen-toggle"
      onClick={() => {
        if (!document.fullscreenEnabled || typeof document.documentElement.requestFullscreen !== 'function') {
          toast.warning(t('nav.fullscreenUnsupported'));
          return;
        }
        const done = full ? document.exitFullscreen() : document.documentElement.requestFullscreen();
        done.catch(() => toast.warning(t('nav.fullscreenUnsupported')));
      }}
    >
      <UiIcon name={full ? 'compress' : 'expand'} />
    </button>
  );
}

function SizeSelect({ path }: { path: string }) {
  useSignals();
  const t = useT();
  const choose = (s: Size) => {
    // Read when chosen: subscribed to the address, the header would be drawn again with every page of a list.
    const search = location.search.slice(1);
    size.value = s;
    toast.success(t('nav.sizeChanged'));
    // Remount the current screen so components that measured themselves lay out again; not while
    // a form holds unsaved changes, which would be lost: it re-renders at the new size as it is.
    if (!hasUnsavedChanges()) navigate(`${REDIRECT_PREFIX}${path}${search ? `?${search}` : ''}`, { replace: true });
  };
  return (
    <Menu as="div" className="relative">
      <MenuButton className="nav-btn" aria-label={t('nav.size')} title={t('nav.size')} data-testid="size-select">
        <UiIcon name="size" />
      </MenuButton>
      <MenuItems className={menuItems} data-testid="size-menu">
        {SIZES.map((s) => (
          <MenuItem key={s} disabled={size.value === s}>
            <button type="button" className={menuItem} onClick={() => choose(s)} data-size={s}>
              {t(`size.${s}` as MessageKey)}
            </button>
          </MenuItem>
        ))}
      </MenuItems>
    </Menu>
  );
}

function LanguageSelect() {
  useSignals();
  const t = useT();
  return (
    <Menu as="div" className="relative">
      <MenuButton
        className="nav-btn"
        aria-label={t('nav.language')}
        title={t('nav.language')}
        data-testid="language-select"
      >
        <UiIcon name="globe" />
      </MenuButton>
      <MenuItems className={menuItems} data-testid="language-menu">
        {LANGUAGES.map((l) => (
          <MenuItem key={l} disabled={language.value === l}>
            <button type="button" className={menuItem} onClick={() => setLanguage(l)} data-lang={l} lang={l}>
              {LANGUAGE_NAMES[l]}
            </button>
          </MenuItem>
        ))}
      </MenuItems>
    </Menu>
  );
}

function UserMenu() {
  useSignals();
  const t = useT();
  const onLogout = async () => {
    // Read when chosen: subscribed to the address, the header would be drawn again with every page of a list.
    const here = location.pathname + location.search;
    // Logging out drops unsaved changes as surely as leaving the page does.
    if (!(await confirmLeave())) return;
    await logout();
    navigate(loginUrl(here), { replace: true });
  };
  return (
    <Menu as="div" className="relative">
      <MenuButton className="nav-btn gap-1" aria-label={t('nav.userMenu')} data-testid="user-menu">
        <span
          className="flex h-8 w-8 items-center justify-center rounded-full bg-primary text-sm font-semibold text-on-primary"
          data-testid="avatar"
          aria-hidden="true"
        >
          {accountInitial(accountName.value)}
        </span>
        <UiIcon name="down" className="h-4 w-4" />
      </MenuButton>
      <MenuItems className={menuItems}>
        <MenuItem>
          <Link href="/dashboard" className={menuItem}>
            {t('route.dashboard')}
          </Link>
        </MenuItem>
        <MenuItem>
          <button type="button" className={menuItem} onClick={() => void onLogout()} data-testid="logout">
            {t('nav.logout')}
          </button>
        </MenuItem>
      </MenuItems>
    </Menu>
  );
}

/** Memoised: the frame draws again with every change of the address, and the header shows none of the query. */
export const Navbar = memo(function Navbar({
  path,
  held,
  unoffered,
}: {
  path: string;
  held: readonly string[];
  unoffered: Unoffered;
}) {
  useSignals();
  const t = useT();
  const webVersion = webClientUrl(location, session.value?.webClientUrl ?? null);
  return (
    <div className="relative flex h-[50px] items-center gap-2 border-b border-slate-200 bg-white px-2 shadow-sm">
      <button
        type="button"
        className="nav-btn"
        aria-label={t('nav.toggleSidebar')}
        title={t('nav.toggleSidebar')}
        aria-expanded={sidebarOpened.value}
        data-testid="hamburger"
        onClick={toggleSidebar}
      >
        <UiIcon name="menu" className={`h-5 w-5 transition-transform ${sidebarOpened.value ? '' : 'rotate-90'}`} />
      </button>
      <Breadcrumb path={path} />
      <div className="ml-auto flex items-center gap-1">
        <HeaderSearch held={held} unoffered={unoffered} />
        {webVersion && (
          <a
            className="nav-btn hidden text-sm sm:inline-flex"
            href={webVersion}
            target="_blank"
            rel="noopener noreferrer"
            data-testid="web-version"
          >
            <UiIcon name="web" className="h-4 w-4" />
            <span className="ml-1">{t('nav.webVersion')}</span>
          </a>
        )}
        <FullscreenToggle />
        <SizeSelect path={path} />
        <LanguageSelect />
        <button
          type="button"
          className="nav-btn"
          aria-label={t('nav.settings')}
          title={t('nav.settings')}
          data-testid="settings-toggle"
          onClick={() => (showSettings.value = true)}
        >
          <UiIcon name="gear" />
        </button>
        <UserMenu />
      </div>
    </div>
  );
});
