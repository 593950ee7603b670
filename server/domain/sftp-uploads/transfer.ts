import { createHash } from 'node:crypto';
import ssh2 from 'ssh2';
import type { SFTPWrapper } from 'ssh2';
import type { SftpCredentials } from '../../../schema/api/calls-sftp.ts';
import { addressAllowed } from '../../core/outbound-address.ts';
import { resolveHost } from '../../core/outbound-fetch.ts';

/**
 * One file to an admin's SFTP server, under the outbound rule (server/core/outbound-fetch.ts):
 * the host is resolved, every address it has must be public (loopback only with the tests' and
 * development's opt-in, SSO_ALLOW_LOOPBACK_HTTP), and the connection goes to the checked address
 * itself, so a name that resolves elsewhere a moment later changes nothing. The file is written
 * as `<name>.part` and renamed into place, so a reader never sees half a file; a file of the same
 * name left by an earlier attempt of the same upload is replaced. The server's host key is pinned
 * at the first connection (trust on first use) and a different key later is refused.
 */

export type SftpNet = { allowLoopback: boolean; dnsServer: string | null };

/** Refusals a retry cannot mend (an inside address, a changed host key): the upload fails at once. */
export class SftpRefused extends Error {}

export type SftpTarget = {
  host: string; port: number; username: string; credentials: SftpCredentials; folder: string;
  /** The pinned host key (sha256, base64); null: not pinned yet. */
  hostKeySha256: string | null;
};

const TIMEOUT_MS = 120_000;
const READY_TIMEOUT_MS = 15_000;

/** The address to connect to: the host's first address when every address it has is allowed; else null. */
export async function checkedSftpAddress(host: string, net: SftpNet): Promise<string | null> {
  const addresses = await resolveHost(host, net.dnsServer);
  if (addresses.length === 0 || !addresses.every((a) => addressAllowed(a, net.allowLoopback))) return null;
  return addresses[0]!;
}

/** `SHA256:…` as OpenSSH prints a fingerprint. */
export const fingerprintOf = (sha256: string) => `SHA256:${sha256.replace(/=+$/, '')}`;

const joinPath = (folder: string, name: string) => `${folder.replace(/\/+$/, '')}/${name}`;

function call<T>(fn: (cb: (err: Error | null | undefined, v?: T) => void) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => fn((err, v) => (err ? reject(err) : resolve(v as T))));
}

async function writeAtomically(sftp: SFTPWrapper, folder: string, fileName: string, bytes: Uint8Array): Promise<void> {
  const target = joinPath(folder, fileName);
  const part = `${target}.part`;
  await call<void>((cb) => sftp.writeFile(part, Buffer.from(bytes), cb));
  // SFTP v3 RENAME does not replace: a file left by an earlier attempt of this upload goes first.
  await call<void>((cb) => sftp.unlink(target, cb)).catch((err: unknown) => {
    if ((err as { code?: number }).code !== 2) throw err; // 2: SSH_FX_NO_SUCH_FILE
  });
  await call<void>((cb) => sftp.rename(part, target, cb));
}

/** Uploads `bytes` as `fileName` into the target's folder; answers the host key seen (sha256, base64). */
export async function uploadFile(target: SftpTarget, fileName: string, bytes: Uint8Array, net: SftpNet): Promise<{ hostKeySha256: string }> {
  const address = await checkedSftpAddress(target.host, net);
  if (!address) throw new SftpRefused(`${target.host} is not a public address (or could not be resolved): uploads go only to public internet hosts.`);
  const client = new ssh2.Client();
  let seen: string | null = null;
  const creds = target.credentials;
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`The upload to ${target.host} did not finish within ${TIMEOUT_MS / 1000} seconds.`)), TIMEOUT_MS);
      const fail = (err: unknown) => { clearTimeout(timer); reject(err instanceof Error ? err : new Error(String(err))); };
      client.on('error', (err) => {
        if (seen !== null && target.hostKeySha256 !== null && seen !== target.hostKeySha256) {
          fail(new SftpRefused(`The server’s host key changed (now ${fingerprintOf(seen)}); nothing was sent. Delete and add the destination again if the change is expected.`));
        } else fail(err);
      });
      client.on('ready', () => {
        client.sftp((err, sftp) => {
          if (err) return fail(err);
          writeAtomically(sftp, target.folder, fileName, bytes).then(() => { clearTimeout(timer); resolve(); }, fail);
        });
      });
      client.connect({
        host: address, port: target.port, username: target.username, readyTimeout: READY_TIMEOUT_MS,
        ...(creds.method === 'password' ? { password: creds.password } : { privateKey: creds.private_key, ...(creds.passphrase && { passphrase: creds.passphrase }) }),
        hostVerifier: (key: Buffer) => {
          seen = createHash('sha256').update(key).digest('base64');
          return target.hostKeySha256 === null || target.hostKeySha256 === seen;
        },
      });
    });
  } finally {
    client.end();
  }
  return { hostKeySha256: seen! };
}
