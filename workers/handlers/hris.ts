import {
  applyHrisImport, createHrisImport, deleteHrisConnection, getHrisConnection, getHrisImport, listHrisImports, putHrisConnection,
  type HrisConnection, type HrisConnectionBody, type HrisImport,
} from '../../schema/api/calls-hris.ts';
import { MAX_HRIS_FILE_BYTES } from '../../schema/hris.ts';
import type { OnlineFailure } from '../contracts/views.ts';
import { bindDomain, custom, offlineFailure, onlineDomain, via, type OnlineApi, type OnlinePort } from '../online.ts';

/** Refused before any request: decided on the server, nothing mirrored or queued. */
export const HRIS_OFFLINE = offlineFailure('You’re offline. The HRIS connection lives on the server and needs a connection: nothing was sent.');

const importOf = (d: HrisImport) => ({ import: d });

/**
 * Issue 32: the HRIS connection (schema/api/calls-hris.ts): its settings, CSV uploads answered
 * with their diff or errors, the import history, and applying a reviewed diff. Direct calls,
 * online only; the people it changes come back through the feed.
 */
export const HRIS_DOMAIN = onlineDomain(HRIS_OFFLINE, {
  hrisConnection: via(getHrisConnection, () => ({}), (d) => ({ connection: d.connection })),
  saveHrisConnection: via(putHrisConnection, (body: HrisConnectionBody) => ({ body }), (d: HrisConnection) => ({ connection: d })),
  disconnectHris: via(deleteHrisConnection, () => ({}), () => ({})),
  hrisImports: via(listHrisImports, () => ({}), (d) => ({ imports: d.data })),
  hrisImport: via(getHrisImport, (id: string) => ({ params: { import_id: id } }), importOf),
  applyHrisImport: via(applyHrisImport, (id: string) => ({ params: { import_id: id } }), importOf),
  /** A CSV file as it is (size checked first: a file the server would refuse is never sent). */
  uploadHrisFile: custom((send, port, offline) => async (file: Blob): Promise<{ ok: true; import: HrisImport } | OnlineFailure> => {
    if (!port.hub.online) return offline;
    if (file.size === 0) return { ok: false, error: { error_code: 'UPLOAD_7104', message: 'The file is empty.' } };
    if (file.size > MAX_HRIS_FILE_BYTES) return { ok: false, error: { error_code: 'UPLOAD_7103', message: 'The file is larger than 5 MB.' } };
    const name = (file as { name?: unknown }).name;
    const query = typeof name === 'string' && name.trim() !== '' ? { file_name: name.slice(0, 200) } : {};
    const r = await send(createHrisImport, { query, file: { body: file, contentType: 'text/csv' } });
    return r.ok ? { ok: true, import: r.data } : r;
  }),
});

export type HrisApi = OnlineApi<typeof HRIS_DOMAIN>;

export const hrisWorkerHandlers = (port: OnlinePort): HrisApi => bindDomain(port, HRIS_DOMAIN);
