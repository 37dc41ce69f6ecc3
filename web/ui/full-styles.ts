/**
 * The login page ships with a stylesheet of its own classes only; the whole UI's stylesheet, named
 * by the page's `full-styles` meta tag, is added when the frame behind the login first needs it.
 * The frame suspends on `fullStylesReady()` so no screen is ever drawn without its styles.
 */
let ready: Promise<void> | null = null;

export function fullStylesReady(): Promise<void> {
  if (ready) return ready;
  const href = document.querySelector<HTMLMetaElement>('meta[name="full-styles"]')?.content;
  if (!href || document.querySelector(`link[rel="stylesheet"][href="${CSS.escape(href)}"]`))
    return (ready = Promise.resolve());
  ready = new Promise<void>((resolve) => {
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = href;
    // A stylesheet that fails to load still lets the console work, unstyled, rather than hang.
    link.onload = () => resolve();
    link.onerror = () => resolve();
    document.head.append(link);
  });
  return ready;
}
