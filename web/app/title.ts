import { computed } from '@preact/signals-react';
import { fileUrl } from '../lib/file-url.js';
import { siteConfig } from '../api/session.js';

/** The Chinese word for back-office closes every title, whatever the language. */
export const TITLE_SUFFIX = '后台';

export const siteTitle = computed(() => {
  const name = siteConfig.value?.chatRoomName?.trim();
  return name ? `${name}${TITLE_SUFFIX}` : TITLE_SUFFIX;
});

export function pageTitle(routeTitle: string | null, site: string): string {
  return routeTitle ? `${routeTitle} - ${site}` : site;
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
