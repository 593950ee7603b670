import {
  createSftpDestination, deleteSftpDestination, getSftpDestination, listSftpDestinations, runSftpUpload, updateSftpDestination,
  type SftpDestination, type SftpDestinationBody, type SftpUpload,
} from '../../schema/api/calls-sftp.ts';
import { bindDomain, offlineFailure, onlineDomain, via, type OnlineApi, type OnlinePort } from '../online.ts';

/** Refused before any request: the destinations live on the server, nothing mirrored or queued. */
export const SFTP_OFFLINE = offlineFailure('You’re offline. SFTP uploads are set up on the server and need a connection: nothing was sent.');

export type SftpDestinationUpdate = Omit<SftpDestinationBody, 'credentials' | 'start_date'> & { credentials?: SftpDestinationBody['credentials'] };

/**
 * Issue 32: scheduled SFTP transaction uploads (schema/api/calls-sftp.ts): destinations, their
 * upload history and "Upload now". Direct calls, online only.
 */
export const SFTP_DOMAIN = onlineDomain(SFTP_OFFLINE, {
  sftpDestinations: via(listSftpDestinations, () => ({}), (d) => ({ destinations: d.data })),
  sftpDestination: via(getSftpDestination, (id: string) => ({ params: { id } }), (d) => ({ destination: d.destination, uploads: d.uploads })),
  createSftpDestination: via(createSftpDestination, (body: SftpDestinationBody) => ({ body }), (d: SftpDestination) => ({ destination: d })),
  updateSftpDestination: via(updateSftpDestination, (id: string, body: SftpDestinationUpdate) => ({ params: { id }, body }),
    (d: SftpDestination) => ({ destination: d })),
  deleteSftpDestination: via(deleteSftpDestination, (id: string) => ({ params: { id } }), () => ({})),
  runSftpUpload: via(runSftpUpload, (id: string) => ({ params: { id } }), (d: SftpUpload) => ({ upload: d })),
});

export type SftpUploadApi = OnlineApi<typeof SFTP_DOMAIN>;

export const sftpUploadWorkerHandlers = (port: OnlinePort): SftpUploadApi => bindDomain(port, SFTP_DOMAIN);
