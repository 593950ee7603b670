import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { INFO_TOAST_MS, dismissToast, toastError, toastInfo, toastStore } from './toast-store.ts';

const messages = () => toastStore.get().toasts.map((t) => `${t.tone}:${t.message}`);

describe('toasts', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    toastStore.set({ toasts: [] });
  });
  afterEach(() => vi.useRealTimers());

  it('keeps errors until dismissed and lets info fade', () => {
    const err = toastError('The GL account is archived.');
    toastInfo('Saved.');
    expect(messages()).toEqual(['error:The GL account is archived.', 'info:Saved.']);
    vi.advanceTimersByTime(INFO_TOAST_MS);
    expect(messages()).toEqual(['error:The GL account is archived.']);
    dismissToast(err);
    expect(messages()).toEqual([]);
  });

  it('shows a repeated message once, and at most four toasts', () => {
    toastError('a');
    toastError('a');
    expect(messages()).toEqual(['error:a']);
    for (const m of ['b', 'c', 'd', 'e']) toastError(m);
    expect(messages()).toEqual(['error:b', 'error:c', 'error:d', 'error:e']);
  });
});
