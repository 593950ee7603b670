import { useEffect } from 'react';
import { createStore } from '../data-access/store.ts';
import type { Command } from './commands.ts';

/**
 * Commands a mounted page offers the palette because they depend on its state ("Code selected"
 * while rows are selected, "Search transactions" focusing its own box). The palette reads them
 * when it opens (`pageCommandsStore.get()`); a page's command replaces a contributed one with
 * the same id.
 */
export const pageCommandsStore = createStore<{ commands: readonly Command[] }>({ commands: [] });

/** Offers `commands` while the calling component is mounted (pass a memoised list). */
export function usePageCommands(commands: readonly Command[]): void {
  useEffect(() => {
    pageCommandsStore.set((s) => ({ commands: [...s.commands, ...commands] }));
    return () => pageCommandsStore.set((s) => ({ commands: s.commands.filter((c) => !commands.includes(c)) }));
  }, [commands]);
}
