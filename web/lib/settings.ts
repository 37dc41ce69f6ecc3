import { computed, effect, signal } from '@preact/signals-react';
import { readCookie, writeCookie } from './cookies.js';
import type { PrimaryShades } from './contrast.js';
import { isLanguage, pickLanguage, type Language } from './language.js';
import { isBoolean, isString, persistedSignal, storedRaw } from './persisted.js';

/** View settings, persisted: localStorage, and the sidebar in a cookie. */

export const SIZES = ['default', 'medium', 'small', 'mini'] as const;
export type Size = (typeof SIZES)[number];
const isSize = (v: unknown): v is Size => typeof v === 'string' && (SIZES as readonly string[]).includes(v);

export const MOBILE_BREAKPOINT = 992;
export const SIDEBAR_COOKIE = 'sidebarStatus';
export const DEFAULT_THEME = '#409EFF';
/**
 * primaryShades(DEFAULT_THEME, scheme), written out (tests/web/contrast.test.ts checks they match):
 * the default colour needs no contrast arithmetic, which then stays out of the login page's first
 * load and arrives only for a theme colour someone picked.
 */
export const DEFAULT_SHADES: Readonly<Record<'light' | 'dark', PrimaryShades>> = {
  light: { primary: '#2e72b8', onPrimary: '#ffffff' },
  dark: { primary: '#409eff', onPrimary: '#0f172a' },
};

type Shades = (colour: string, scheme: 'light' | 'dark') => PrimaryShades;
const defaultShades: Shades = (_colour, scheme) => DEFAULT_SHADES[scheme];
/** The contrast arithmetic, once a picked colour has asked for it. */
const shadesFor = signal<Shades | null>(null);

export const size = persistedSignal<Size>('size', 'medium', isSize);
export const fixedHeader = persistedSignal('fixedHeader', true, isBoolean);
export const sidebarLogo = persistedSignal('sidebarLogo', true, isBoolean);
export const tagsView = persistedSignal('tagsView', false, isBoolean);
export const theme = persistedSignal(
  'theme',
  DEFAULT_THEME,
  (v): v is string => isString(v) && /^#[0-9a-fA-F]{6}$/.test(v),
);

export const COLOR_SCHEMES = ['light', 'dark', 'system'] as const;
export type ColorScheme = (typeof COLOR_SCHEMES)[number];
const isColorScheme = (v: unknown): v is ColorScheme =>
  typeof v === 'string' && (COLOR_SCHEMES as readonly string[]).includes(v);
/** Light, dark, or whatever the operating system prefers (the default). */
export const colorScheme = persistedSignal<ColorScheme>('colorScheme', 'system', isColorScheme);

const darkQuery =
  typeof window !== 'undefined' && typeof window.matchMedia === 'function'
    ? window.matchMedia('(prefers-color-scheme: dark)')
    : null;
const systemPrefersDark = signal(darkQuery?.matches ?? false);
darkQuery?.addEventListener('change', (event) => (systemPrefersDark.value = event.matches));

/** The scheme in force: the chosen one, or the system's when following it. */
export const appliedScheme = computed<'light' | 'dark'>(() =>
  colorScheme.value === 'system' ? (systemPrefersDark.value ? 'dark' : 'light') : colorScheme.value,
);

const browserLanguages = typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language]);
export const language = signal<Language>(pickLanguage(storedRaw('language') as string | null, browserLanguages));

/** Only a language the user chose is saved; otherwise the browser's keeps deciding. */
export function setLanguage(lang: Language): void {
  if (!isLanguage(lang)) return;
  try {
    localStorage.setItem('console.language', JSON.stringify(lang));
  } catch {
    /* not persisted in privacy modes */
  }
  language.value = lang;
}

export const showSettings = signal(false);

/** Sidebar open unless a saved "0"; a width under the breakpoint closes it without saving. */
export const sidebarOpened = signal(readCookie(SIDEBAR_COOKIE) !== '0');
export const device = signal<'desktop' | 'mobile'>(
  typeof window !== 'undefined' && window.innerWidth < MOBILE_BREAKPOINT ? 'mobile' : 'desktop',
);
if (device.value === 'mobile') sidebarOpened.value = false;

export function toggleSidebar(): void {
  sidebarOpened.value = !sidebarOpened.value;
  if (device.value === 'desktop') writeCookie(SIDEBAR_COOKIE, sidebarOpened.value ? '1' : '0');
}

export function closeSidebar(save = true): void {
  sidebarOpened.value = false;
  if (save && device.value === 'desktop') writeCookie(SIDEBAR_COOKIE, '0');
}

/** Applies settings to the document: <html lang>, the size class, the colour scheme and the theme colour. */
export function applyDocumentSettings(onLanguage: (lang: Language) => void): void {
  effect(() => {
    onLanguage(language.value);
  });
  effect(() => {
    const root = document.documentElement;
    for (const s of SIZES) root.classList.toggle(`size-${s}`, s === size.value);
  });
  effect(() => {
    // The picked colour as it is often fails 4.5:1 with white text or on white: the console draws
    // with the nearest shade that passes on this scheme's surfaces (see contrast.ts).
    const scheme = appliedScheme.value;
    const root = document.documentElement;
    const custom = theme.value.toLowerCase() !== DEFAULT_THEME.toLowerCase();
    const loaded = shadesFor.value;
    if (custom && !loaded) void import('./contrast.js').then((m) => (shadesFor.value = m.primaryShades));
    // Until the arithmetic arrives (a moment, once per page), a picked colour draws as the default.
    const primaryShades = custom && loaded ? loaded : defaultShades;
    const { primary, onPrimary } = primaryShades(theme.value, scheme);
    root.classList.toggle('dark', scheme === 'dark');
    root.style.colorScheme = scheme;
    root.style.setProperty('--color-primary', primary);
    root.style.setProperty('--color-on-primary', onPrimary);
    // The sidebar is dark in both schemes: it draws with the dark scheme's shade.
    root.style.setProperty('--color-primary-dark', primaryShades(theme.value, 'dark').primary);
  });
  const onResize = () => {
    const next = window.innerWidth < MOBILE_BREAKPOINT ? 'mobile' : 'desktop';
    if (next === device.value) return;
    device.value = next;
    if (next === 'mobile') sidebarOpened.value = false;
    else sidebarOpened.value = readCookie(SIDEBAR_COOKIE) !== '0';
  };
  window.addEventListener('resize', onResize);
}
