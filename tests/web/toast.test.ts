import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { UNDO_TOAST_MS, dismissToast, holdToast, releaseToast, toast, toasts } from '../../web/lib/toast.js';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  for (const x of toasts.value) dismissToast(x.id);
  vi.useRealTimers();
});

describe('toasts with a button', () => {
  it('keeps an offer to undo for its time, then drops it', () => {
    const run = vi.fn();
    toast.success('Banned amy', { label: 'Undo', run });
    expect(toasts.value).toMatchObject([{ kind: 'success', text: 'Banned amy', action: { label: 'Undo' } }]);
    vi.advanceTimersByTime(UNDO_TOAST_MS - 1);
    expect(toasts.value).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(toasts.value).toHaveLength(0);
    expect(run).not.toHaveBeenCalled();
  });

  it('does not vanish while held, and gets its whole time again once let go', () => {
    toast.success('Disabled bob', { label: 'Undo', run: () => undefined });
    const [shown] = toasts.value;
    vi.advanceTimersByTime(UNDO_TOAST_MS - 100);
    holdToast(shown!.id);
    vi.advanceTimersByTime(UNDO_TOAST_MS * 3);
    expect(toasts.value).toHaveLength(1);
    releaseToast(shown!.id);
    vi.advanceTimersByTime(UNDO_TOAST_MS - 1);
    expect(toasts.value).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(toasts.value).toHaveLength(0);
  });

  it('gives a plain success toast its usual shorter time', () => {
    toast.success('Saved');
    vi.advanceTimersByTime(3000);
    expect(toasts.value).toHaveLength(0);
  });
});
