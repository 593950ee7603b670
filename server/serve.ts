import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { createApp, type CreateAppOptions, type LedgerlineApp } from './app.ts';

export type RunningServer = { app: LedgerlineApp; url: string; port: number; close(): Promise<void> };

/** Binds the app to host:port (port 0 = any free port) and gives back a clean way to stop it. */
export async function listen(opts: CreateAppOptions & { host: string; port: number }): Promise<RunningServer> {
  const app = createApp(opts);
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, hostname: opts.host, port: opts.port }, () => resolve(s));
    s.once('error', reject);
  });
  const port = (server.address() as AddressInfo).port;
  const hostForUrl = opts.host.includes(':') ? `[${opts.host}]` : opts.host;
  return {
    app,
    port,
    url: `http://${hostForUrl}:${port}`,
    async close() {
      // End the SSE streams first: they never finish on their own, and close() waits for them.
      await app.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        if ('closeIdleConnections' in server) server.closeIdleConnections();
        setTimeout(() => 'closeAllConnections' in server && server.closeAllConnections(), 2_000).unref();
      });
    },
  };
}
