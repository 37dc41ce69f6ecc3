/**
 * Small pictures (avatars, icons) fetched in batches and shown a batch at a time.
 *
 * A page of a list holds about twenty avatars. Put straight into `<img>` elements, each one that
 * arrives is a frame of its own: the page is painted, rastered and composited twenty times over,
 * while the gateway, the backend and the browser's network process each work for every fetch. On a
 * two-core machine that work took the processor from the next page's rows: a page of rows took
 * twice as long to draw with its avatars as without them.
 *
 * So a picture is fetched once its place comes near the view (one shared IntersectionObserver,
 * whose first answer comes after the page has been painted), the pictures that come near the view
 * together are fetched together, and they are shown together, in one frame, once all of them are
 * in (or, for those still on their way, when BATCH_WAIT_MS is over: a slow one never holds back
 * the others for long). A picture shown once is shown at once afterwards.
 */

export type PictureState = 'loaded' | 'failed';

/** The longest a batch's pictures wait for the slowest of them before those in are shown. */
export const BATCH_WAIT_MS = 300;
/** How far outside the view a picture's place starts its fetch. */
const NEAR_VIEW = '200px';
/** Pictures remembered (and their images held, so the browser keeps them decoded). */
const KEPT = 600;
/** A picture that failed is asked for again after this long: the file server may have been down a moment. */
export const FAILED_RETRY_MS = 60_000;

const known = new Map<string, { state: PictureState; image: HTMLImageElement | null; at: number }>();
const fetching = new Set<string>();
const listeners = new Set<() => void>();
/** Pictures that settled after their batch's wait was over, shown together at the next frame. */
const unannounced: { url: string; state: PictureState; image: HTMLImageElement | null }[] = [];

function remember(url: string, state: PictureState, image: HTMLImageElement | null): void {
  known.delete(url);
  known.set(url, { state, image, at: Date.now() });
  // Oldest first: a Map iterates in insertion order.
  while (known.size > KEPT) known.delete(known.keys().next().value!);
}

function announce(settled: typeof unannounced): void {
  if (settled.length === 0) return;
  for (const { url, state, image } of settled) {
    fetching.delete(url);
    remember(url, state, image);
  }
  for (const listener of listeners) listener();
}

/** What is known of the picture; a failure forgotten once FAILED_RETRY_MS is over. */
function knownOf(url: string) {
  const entry = known.get(url);
  if (entry?.state === 'failed' && Date.now() - entry.at > FAILED_RETRY_MS) {
    known.delete(url);
    return undefined;
  }
  return entry;
}

/**
 * The picture's state: loaded, failed, or undefined while not fetched (or not yet shown). A
 * failure is told for FAILED_RETRY_MS; a picture drawn after that is fetched again.
 */
export function pictureState(url: string): PictureState | undefined {
  return knownOf(url)?.state;
}

export function subscribePictures(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Fetches the pictures of one batch; announces them together, and any late one on its own. */
export function fetchBatch(urls: readonly string[]): void {
  const fresh = urls.filter((url) => !knownOf(url) && !fetching.has(url));
  if (fresh.length === 0) return;
  let open = true;
  let waiting = fresh.length;
  const settledHere: typeof unannounced = [];
  const close = () => {
    if (!open) return;
    open = false;
    clearTimeout(timer);
    announce(settledHere.splice(0));
  };
  const timer = setTimeout(close, BATCH_WAIT_MS);
  for (const url of fresh) {
    fetching.add(url);
    const image = new Image();
    image.src = url;
    image.decode().then(
      () => settle(url, 'loaded', image),
      // decode() also refuses a picture that loaded but cannot be drawn: the same to the reader.
      () => settle(url, 'failed', null),
    );
  }
  function settle(url: string, state: PictureState, image: HTMLImageElement | null) {
    waiting -= 1;
    if (open) {
      settledHere.push({ url, state, image });
      if (waiting === 0) close();
    } else {
      // Past the wait: late pictures of one frame are shown in that frame, together.
      unannounced.push({ url, state, image });
      if (unannounced.length === 1) requestAnimationFrame(() => announce(unannounced.splice(0)));
    }
  }
}

let observer: IntersectionObserver | null = null;
const watched = new Map<Element, string>();

function nearView(entries: IntersectionObserverEntry[]): void {
  const batch: string[] = [];
  for (const entry of entries) {
    if (!entry.isIntersecting) continue;
    const url = watched.get(entry.target);
    observer!.unobserve(entry.target);
    watched.delete(entry.target);
    if (url) batch.push(url);
  }
  fetchBatch(batch);
}

/**
 * Fetches `url` once `place` (the picture's stand-in) comes near the view, in the batch of the
 * others that come with it. Returns the function that stops watching (the stand-in went away).
 */
export function watchPicture(place: Element, url: string): () => void {
  if (typeof IntersectionObserver === 'undefined') {
    fetchBatch([url]);
    return () => {};
  }
  observer ??= new IntersectionObserver(nearView, { rootMargin: NEAR_VIEW });
  watched.set(place, url);
  observer.observe(place);
  return () => {
    if (!watched.has(place)) return;
    watched.delete(place);
    observer?.unobserve(place);
  };
}
