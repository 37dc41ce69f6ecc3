import { effect, signal, type Signal } from '@preact/signals-react';

const PREFIX = 'console.';

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    // Storage can throw in private modes or sandboxed frames; settings then live for the page only.
    return null;
  }
}

/** A signal whose value survives reloads in localStorage; a stored value failing `valid` is ignored. */
export function persistedSignal<T>(key: string, fallback: T, valid: (v: unknown) => v is T): Signal<T> {
  const store = storage();
  let initial = fallback;
  const raw = store?.getItem(PREFIX + key);
  if (raw != null) {
    try {
      const parsed: unknown = JSON.parse(raw);
      if (valid(parsed)) initial = parsed;
    } catch {
      /* a corrupt entry falls back to the default */
    }
  }
  const s = signal(initial);
  effect(() => {
    const v = s.value;
    try {
      store?.setItem(PREFIX + key, JSON.stringify(v));
    } catch {
      /* quota or privacy mode: keep the in-memory value */
    }
  });
  return s;
}

export function storedRaw(key: string): unknown {
  const raw = storage()?.getItem(PREFIX + key);
  if (raw == null) return null;
  try {
    return JSON.parse(raw);
  } catch {
    return null;
  }
}

export const isBoolean = (v: unknown): v is boolean => typeof v === 'boolean';
export const isString = (v: unknown): v is string => typeof v === 'string';
