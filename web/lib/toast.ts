import { signal } from '@preact/signals-react';

export type ToastKind = 'success' | 'error' | 'warning' | 'info';
export interface Toast {
  id: number;
  kind: ToastKind;
  text: string;
}

export const ERROR_TOAST_MS = 5000;
export const toasts = signal<Toast[]>([]);
let nextId = 1;

export function dismissToast(id: number): void {
  toasts.value = toasts.value.filter((x) => x.id !== id);
}

export function showToast(kind: ToastKind, text: string, ms = kind === 'error' ? ERROR_TOAST_MS : 3000): void {
  // The same message arriving twice at once (parallel calls failing together) is shown once.
  if (toasts.value.some((x) => x.kind === kind && x.text === text)) return;
  const id = nextId++;
  toasts.value = [...toasts.value, { id, kind, text }];
  setTimeout(() => dismissToast(id), ms);
}

export const toast = {
  success: (text: string) => showToast('success', text),
  error: (text: string) => showToast('error', text),
  warning: (text: string) => showToast('warning', text),
  info: (text: string) => showToast('info', text),
};
