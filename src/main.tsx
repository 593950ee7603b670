import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from '@tanstack/react-router';
import { createDataClient } from '../workers/client.ts';
import { bootData, createAppStore } from './data-access/app-state.ts';
import { DataProvider } from './data-access/data-context.tsx';
import { createAppRouter } from './router.tsx';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('Ledgerline mounts into #root, which index.html must provide');

const store = createAppStore(navigator.onLine);
const client = createDataClient();
const router = createAppRouter(store);
void bootData(client, store);

createRoot(root).render(
  <StrictMode>
    <DataProvider client={client} store={store}>
      <RouterProvider router={router} />
    </DataProvider>
  </StrictMode>,
);
