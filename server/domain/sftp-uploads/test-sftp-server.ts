import { closeSync, mkdtempSync, openSync, renameSync, rmSync, statSync, unlinkSync, writeSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, normalize } from 'node:path';
import ssh2 from 'ssh2';
import type { SFTPWrapper } from 'ssh2';

/**
 * A real SFTP server for tests (ssh2's Server with the sftp subsystem) on 127.0.0.1, serving a temp
 * folder: password login, OPEN/WRITE/CLOSE, STAT, REMOVE and RENAME (SFTP v3: no replace), enough
 * for the uploader. `hook` runs before each request is answered (a test stops the server mid-upload).
 */
export type TestSftpServer = {
  port: number; root: string; username: string; password: string;
  /** A private key (OpenSSH) the server also accepts for `username`. */
  privateKey: string;
  /** Every request the server answered, e.g. `RENAME /out/a.part /out/a`. */
  log: string[];
  hook: ((op: string) => void) | null;
  close(): Promise<void>;
};

const { STATUS_CODE, flagsToString } = ssh2.utils.sftp;

export async function startTestSftpServer(opts: { username?: string; password?: string } = {}): Promise<TestSftpServer> {
  const root = mkdtempSync(join(tmpdir(), 'll-sftp-'));
  const username = opts.username ?? 'ledgerline';
  const password = opts.password ?? 'upload-secret-1';
  const hostKey = ssh2.utils.generateKeyPairSync('ed25519').private;
  const userKeys = ssh2.utils.generateKeyPairSync('ed25519');
  const allowed = ssh2.utils.parseKey(userKeys.public);
  if (allowed instanceof Error) throw allowed;
  const log: string[] = [];
  const state: { hook: ((op: string) => void) | null } = { hook: null };
  /** A client path inside the root; null when it would leave it. */
  const local = (p: string): string | null => {
    const n = normalize(`/${p}`);
    return n.includes('\0') ? null : join(root, n);
  };

  const serve = (sftp: SFTPWrapper) => {
    const handles = new Map<number, number>();
    let nextHandle = 1;
    const handleOf = (buf: Buffer) => (buf.length === 4 ? handles.get(buf.readUInt32BE(0)) : undefined);
    const answer = (reqid: number, op: string, fn: () => void) => {
      log.push(op);
      try {
        state.hook?.(op);
        fn();
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        sftp.status(reqid, code === 'ENOENT' ? STATUS_CODE.NO_SUCH_FILE : code === 'EEXIST' ? STATUS_CODE.FAILURE : STATUS_CODE.FAILURE);
      }
    };
    sftp.on('OPEN', (reqid, filename, flags) => answer(reqid, `OPEN ${filename}`, () => {
      const path = local(filename);
      const mode = flagsToString(flags);
      if (!path || !mode) return sftp.status(reqid, STATUS_CODE.PERMISSION_DENIED);
      const fd = openSync(path, mode);
      const h = nextHandle++;
      handles.set(h, fd);
      const buf = Buffer.alloc(4);
      buf.writeUInt32BE(h, 0);
      sftp.handle(reqid, buf);
    }));
    sftp.on('WRITE', (reqid, handle, offset, data) => answer(reqid, 'WRITE', () => {
      const fd = handleOf(handle);
      if (fd === undefined) return sftp.status(reqid, STATUS_CODE.FAILURE);
      writeSync(fd, data, 0, data.length, offset);
      sftp.status(reqid, STATUS_CODE.OK);
    }));
    sftp.on('CLOSE', (reqid, handle) => answer(reqid, 'CLOSE', () => {
      const fd = handleOf(handle);
      if (fd === undefined) return sftp.status(reqid, STATUS_CODE.FAILURE);
      closeSync(fd);
      handles.delete(handle.readUInt32BE(0));
      sftp.status(reqid, STATUS_CODE.OK);
    }));
    const stat = (reqid: number, p: string) => answer(reqid, `STAT ${p}`, () => {
      const path = local(p);
      if (!path) return sftp.status(reqid, STATUS_CODE.NO_SUCH_FILE);
      const s = statSync(path);
      sftp.attrs(reqid, { mode: s.mode, uid: 0, gid: 0, size: s.size, atime: Math.floor(s.atimeMs / 1000), mtime: Math.floor(s.mtimeMs / 1000) });
    });
    sftp.on('STAT', stat);
    sftp.on('LSTAT', stat);
    sftp.on('REMOVE', (reqid, p) => answer(reqid, `REMOVE ${p}`, () => {
      const path = local(p);
      if (!path) return sftp.status(reqid, STATUS_CODE.NO_SUCH_FILE);
      unlinkSync(path);
      sftp.status(reqid, STATUS_CODE.OK);
    }));
    sftp.on('RENAME', (reqid, from, to) => answer(reqid, `RENAME ${from} ${to}`, () => {
      const a = local(from);
      const b = local(to);
      if (!a || !b) return sftp.status(reqid, STATUS_CODE.NO_SUCH_FILE);
      try {
        statSync(b);
        return sftp.status(reqid, STATUS_CODE.FAILURE); // SFTP v3: the target must not exist
      } catch { /* free */ }
      renameSync(a, b);
      sftp.status(reqid, STATUS_CODE.OK);
    }));
  };

  const server = new ssh2.Server({ hostKeys: [hostKey] }, (client) => {
    client.on('authentication', (ctx) => {
      if (ctx.method === 'password' && ctx.username === username && ctx.password === password) return ctx.accept();
      if (ctx.method === 'publickey' && ctx.username === username && ctx.key.algo === allowed.type
        && ctx.key.data.equals(allowed.getPublicSSH())) {
        // Without a signature the client only asks whether the key would do; with one it must verify.
        if (!ctx.signature || allowed.verify(ctx.blob!, ctx.signature, ctx.hashAlgo) === true) return ctx.accept();
      }
      ctx.reject(['password', 'publickey']);
    });
    client.on('ready', () => {
      client.on('session', (accept) => {
        const session = accept();
        session.on('sftp', (acceptSftp) => serve(acceptSftp()));
      });
    });
    client.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port, root, username, password, log, privateKey: userKeys.private,
    get hook() { return state.hook; },
    set hook(fn) { state.hook = fn; },
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(root, { recursive: true, force: true });
    },
  };
}
