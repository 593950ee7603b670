import { createContext, useContext, type ReactNode } from 'react';
import type { DataClient } from './types.ts';
import type { AppStore } from './app-state.ts';
import { useStore } from './store.ts';
import type { AppState } from './app-state.ts';

interface DataContextValue {
  client: DataClient;
  store: AppStore;
}

const DataContext = createContext<DataContextValue | null>(null);

export function DataProvider({ client, store, children }: DataContextValue & { children: ReactNode }) {
  return <DataContext.Provider value={{ client, store }}>{children}</DataContext.Provider>;
}

function useDataContext(): DataContextValue {
  const ctx = useContext(DataContext);
  if (!ctx) throw new Error('DataProvider is missing above this component');
  return ctx;
}

/** The worker's typed API (every call is async; nothing here touches the network or IndexedDB). */
export const useDataClient = (): DataClient => useDataContext().client;

export const useAppStore = (): AppStore => useDataContext().store;

export function useAppState<S>(select: (s: AppState) => S): S {
  return useStore(useDataContext().store, select);
}
