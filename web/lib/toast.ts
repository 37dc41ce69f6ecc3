import { signal } from '@preact/signals-react';

export type ToastKind = 'success' | 'error' | 'warning' | 'info';

/** A button on a toast (Undo): pressing it runs `run` and closes the toast. */
export interface ToastAction {
  label: string;
  run: () => void;
}

export interface Toast {
  id: number;
  kind: ToastKind;
  text: string;
  action?: ToastAction;
}

export const ERROR_TOAST_MS = 5000;
/** How long an offer to undo stays: long enough to read the toast and reach its button. */
export const UNDO_TOAST_MS = 5000;
export const toasts = signal<Toast[]>([]);
let nextId = 1;

const timers = new Map<number, { handle: ReturnType<typeof setTimeout> | null; ms: number }>();

export function dismissToast(id: number): void {
  const timer = timers.get(id);
  if (timer?.handle) clearTimeout(timer.handle);
  timers.delete(id);
  toasts.value = toasts.value.filter((x) => x.id !== id);
}

function arm(id: number, ms: number): void {
  timers.set(id, { handle: setTimeout(() => dismissToast(id), ms), ms });
}

/** A toast being read (pointer over it) or used (focus inside it) does not vanish meanwhile. */
export function holdToast(id: number): void {
  const timer = timers.get(id);
  if (timer?.handle) {
    clearTimeout(timer.handle);
    timer.handle = null;
  }
}

/** Let go of a held toast: it gets its whole time again, so nobody loses it the moment the pointer leaves. */
export function releaseToast(id: number): void {
  const timer = timers.get(id);
  if (timer && !timer.handle) arm(id, timer.ms);
}

export function showToast(
  kind: ToastKind,
  text: string,
  ms = kind === 'error' ? ERROR_TOAST_MS : 3000,
  action?: ToastAction,
): void {
  // The same message arriving twice at once (parallel calls failing together) is shown once.
  if (toasts.value.some((x) => x.kind === kind && x.text === text)) return;
  const id = nextId++;
  toasts.value = [...toasts.value, { id, kind, text, ...(action ? { action } : {}) }];
  arm(id, ms);
}

export const toast = {
  success: (text: string, action?: ToastAction) =>
    showToast('success', text, action ? UNDO_TOAST_MS : undefined, action),
  error: (text: string) => showToast('error', text),
  warning: (text: string) => showToast('warning', text),
  info: (text: string) => showToast('info', text),
};
