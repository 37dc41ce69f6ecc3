import { effect, signal } from '@preact/signals-react';
import { readCookie, writeCookie } from './cookies.js';
import { isLanguage, pickLanguage, type Language } from './language.js';
import { isBoolean, isString, persistedSignal, storedRaw } from './persisted.js';

/** View settings, persisted: localStorage, and the sidebar in a cookie. */

export const SIZES = ['default', 'medium', 'small', 'mini'] as const;
export type Size = (typeof SIZES)[number];
const isSize = (v: unknown): v is Size => typeof v === 'string' && (SIZES as readonly string[]).includes(v);

export const MOBILE_BREAKPOINT = 992;
export const SIDEBAR_COOKIE = 'sidebarStatus';
export const DEFAULT_THEME = '#409EFF';

export const size = persistedSignal<Size>('size', 'medium', isSize);
export const fixedHeader = persistedSignal('fixedHeader', true, isBoolean);
export const sidebarLogo = persistedSignal('sidebarLogo', true, isBoolean);
export const tagsView = persistedSignal('tagsView', false, isBoolean);
export const theme = persistedSignal('theme', DEFAULT_THEME, (v): v is string => isString(v) && /^#[0-9a-fA-F]{6}$/.test(v));

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
export const device = signal<'desktop' | 'mobile'>(typeof window !== 'undefined' && window.innerWidth < MOBILE_BREAKPOINT ? 'mobile' : 'desktop');
if (device.value === 'mobile') sidebarOpened.value = false;

export function toggleSidebar(): void {
  sidebarOpened.value = !sidebarOpened.value;
  if (device.value === 'desktop') writeCookie(SIDEBAR_COOKIE, sidebarOpened.value ? '1' : '0');
}

export function closeSidebar(save = true): void {
  sidebarOpened.value = false;
  if (save && device.value === 'desktop') writeCookie(SIDEBAR_COOKIE, '0');
}

/** Applies settings to the document: <html lang>, the size class and the theme colour. */
export function applyDocumentSettings(onLanguage: (lang: Language) => void): void {
  effect(() => {
    onLanguage(language.value);
  });
  effect(() => {
    const root = document.documentElement;
    for (const s of SIZES) root.classList.toggle(`size-${s}`, s === size.value);
  });
  effect(() => {
    document.documentElement.style.setProperty('--color-primary', theme.value);
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
