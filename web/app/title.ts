import { computed } from '@preact/signals-react';
import { FILE_SERVER_PREFIX } from '../../server/contract/index.js';
import { siteConfig } from './session.js';

/** The Chinese word for back-office closes every title (SPEC section 2). */
export const TITLE_SUFFIX = '后台';

export const siteTitle = computed(() => {
  const name = siteConfig.value?.chatRoomName?.trim();
  return name ? `${name}${TITLE_SUFFIX}` : TITLE_SUFFIX;
});

export function pageTitle(routeTitle: string | null, site: string): string {
  return routeTitle ? `${routeTitle} - ${site}` : site;
}

export function fileUrl(path: string | undefined | null): string | null {
  if (!path) return null;
  if (/^(https?:)?\/\//.test(path) || path.startsWith('data:')) return null;
  return FILE_SERVER_PREFIX + path.replace(/^\/+/, '');
}

export function setTabIcon(path: string | undefined | null): void {
  const href = fileUrl(path);
  if (!href) return;
  let link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
  if (!link) {
    link = document.createElement('link');
    link.rel = 'icon';
    document.head.appendChild(link);
  }
  link.removeAttribute('type');
  link.href = href;
}
