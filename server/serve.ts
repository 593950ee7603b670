import { STATUS_CODES } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { serve } from '@hono/node-server';
import { ERROR_CATALOGUE, errorBody, type ErrorCode } from '../schema/errors.ts';
import { createApp, type CreateAppOptions, type LedgerlineApp } from './app.ts';
import { staticSecurityHeaders } from './http/headers.ts';
import { resolveTimeouts } from './http/timeouts.ts';

export type RunningServer = { app: LedgerlineApp; url: string; port: number; close(): Promise<void> };

/**
 * Binds the app to host:port (port 0 = any free port) and gives back a clean way to stop it.
 * A slow client cannot hold a connection (slowloris): headers must arrive within headersMs and
 * the whole request within requestMs (Node checks both every second and answers 408 TIMEOUT
 * through answerClientError), an idle kept-alive connection closes after keepAliveMs, and a body
 * that stalls is the app's 408 (http/timeouts.ts).
 */
export async function listen(opts: CreateAppOptions & { host: string; port: number }): Promise<RunningServer> {
  const timeouts = resolveTimeouts(opts.timeouts);
  const app = createApp(opts);
  const serverOptions = {
    headersTimeout: timeouts.headersMs,
    requestTimeout: timeouts.requestMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    connectionsCheckingInterval: Math.min(1_000, timeouts.headersMs),
  };
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, hostname: opts.host, port: opts.port, serverOptions }, () => resolve(s));
    s.once('error', reject);
  });
  server.on('clientError', answerClientError);
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

/** Node's parser errors that a caller causes, with the catalogue code each is answered with. */
const CLIENT_ERRORS: Record<string, ErrorCode> = {
  // Headers (the request line and its URL included) past Node's maxHeaderSize (16 KB).
  HPE_HEADER_OVERFLOW: 'REQUEST_7014',
  ERR_HTTP_REQUEST_TIMEOUT: 'TIMEOUT',
};

/**
 * A request Node could not parse never reaches Hono; without this listener Node answers it with
 * an empty-bodied 400/431 (or just closes). Answer error_v2 JSON with the security headers instead.
 */
function answerClientError(err: Error & { code?: string }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const code = CLIENT_ERRORS[err.code ?? ''] ?? 'REQUEST_7016';
  const status = ERROR_CATALOGUE[code].status;
  const body = JSON.stringify(errorBody(code));
  const headers = {
    'Content-Type': 'application/json; charset=UTF-8',
    'Content-Length': String(Buffer.byteLength(body)),
    Connection: 'close',
    ...staticSecurityHeaders(),
  };
  const head = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('');
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n${head}\r\n${body}`);
}
