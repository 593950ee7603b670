import {
  deleteSwitchingVendor, listSwitchingVendors, switchVendorToCard, uploadSwitchingStatement,
  type SwitchingImport, type SwitchingOverview, type SwitchVendorCardBody,
} from '../../schema/api/calls-switching.ts';
import { SWITCHING_MAX_FILE_BYTES } from '../../schema/switching.ts';
import type { OnlineFailure } from '../contracts/views.ts';
import { bindDomain, custom, offlineFailure, onlineDomain, via, type OnlineApi, type OnlinePort } from '../online.ts';

/** Refused before any request: the statements and the vendor list live on the server. */
export const SWITCHING_OFFLINE = offlineFailure('You’re offline. Moving vendors needs a connection to the server: nothing was sent.');

/**
 * Switching (schema/api/calls-switching.ts): the old card's statements and the vendors found in
 * them; moving one onto its own virtual card (the card then comes through the feed), removing one.
 * Direct calls, online only.
 */
export const SWITCHING_DOMAIN = onlineDomain(SWITCHING_OFFLINE, {
  switchingOverview: via(listSwitchingVendors, () => ({}), (d: SwitchingOverview) => ({ overview: d })),
  switchVendorToCard: via(
    switchVendorToCard,
    (vendorId: string, body: SwitchVendorCardBody, idempotencyKey: string) => ({ params: { vendor_id: vendorId }, body, idempotencyKey }),
    (d) => ({ vendor: d.vendor, cardId: d.card.id, created: d.created }),
  ),
  removeSwitchingVendor: via(deleteSwitchingVendor, (vendorId: string) => ({ params: { vendor_id: vendorId } }), () => ({})),
  /** A CSV statement as it is (size checked first: a file the server would refuse is never sent). */
  uploadSwitchingStatement: custom((send, port, offline) => async (file: Blob, currency: string): Promise<{ ok: true; import: SwitchingImport; overview: SwitchingOverview } | OnlineFailure> => {
    if (!port.hub.online) return offline;
    if (file.size === 0) return { ok: false, error: { error_code: 'UPLOAD_7104', message: 'The file is empty.' } };
    if (file.size > SWITCHING_MAX_FILE_BYTES) return { ok: false, error: { error_code: 'UPLOAD_7103', message: 'The file is larger than 5 MB.' } };
    const name = (file as { name?: unknown }).name;
    const query = { currency, ...(typeof name === 'string' && name.trim() !== '' && { file_name: name.slice(0, 200) }) };
    const r = await send(uploadSwitchingStatement, { query, file: { body: file, contentType: 'text/csv' } });
    return r.ok ? { ok: true, import: r.data.import, overview: r.data.overview } : r;
  }),
});

export type SwitchingApi = OnlineApi<typeof SWITCHING_DOMAIN>;

export const switchingWorkerHandlers = (port: OnlinePort): SwitchingApi => bindDomain(port, SWITCHING_DOMAIN);
