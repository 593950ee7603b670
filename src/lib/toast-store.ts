import { createStore } from '../data-access/store.ts';

export interface Toast {
  id: number;
  tone: 'error' | 'info';
  message: string;
}

/** Errors stay until dismissed (the user must be able to read the server's words); info fades. */
export const INFO_TOAST_MS = 5_000;
const MAX_TOASTS = 4;

export const toastStore = createStore<{ toasts: Toast[] }>({ toasts: [] });
let nextId = 1;

export function showToast(tone: Toast['tone'], message: string): number {
  const id = nextId++;
  toastStore.set((s) => ({
    // The same message twice in a row is one toast, not a stack of copies.
    toasts: [...s.toasts.filter((t) => t.message !== message), { id, tone, message }].slice(-MAX_TOASTS),
  }));
  if (tone === 'info') setTimeout(() => dismissToast(id), INFO_TOAST_MS);
  return id;
}

export function dismissToast(id: number): void {
  toastStore.set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) }));
}

export const toastError = (message: string) => showToast('error', message);
export const toastInfo = (message: string) => showToast('info', message);
