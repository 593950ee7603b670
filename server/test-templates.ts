/**
 * Template databases for tests: initdb and the migrations run once, then every test database is
 * a copy. A fresh PGlite costs ~6 s of CPU for initdb plus ~1.7 s for the migrations; loading a
 * data-directory tarball costs ~1.4 s. On PostgreSQL, CREATE DATABASE … TEMPLATE copies a
 * migrated database instead of replaying every migration over the wire.
 *
 * Both templates are keyed by the migrations' names and contents (and PGlite's version), so a
 * new or edited migration makes a new template on its own:
 * - PGlite: `<tmpdir>/ledgerline-test-templates/pglite-<bare|migrated>-<version>-<key>.tar`,
 *   written to a temporary name and renamed (concurrent builders cannot leave a partial file);
 * - PostgreSQL: database `ledgerline_tpl_<key>`, built under a temporary name, migrated, then
 *   renamed (the loser of a race drops its copy). Nobody connects to a template after that.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createPglite, openDb, pgliteDb } from './db/db.ts';
import { loadMigrations, migrate } from './db/migrate.ts';

const TEMPLATE_DIR = join(tmpdir(), 'ledgerline-test-templates');
const PGLITE_PACKAGE = fileURLToPath(new URL('../node_modules/@electric-sql/pglite/package.json', import.meta.url));

let migrationsKey: Promise<string> | null = null;
/** A short hash of every migration's name and text. */
function templateKey(): Promise<string> {
  migrationsKey ??= loadMigrations().then((all) => {
    const h = createHash('sha256');
    for (const m of all) h.update(`${m.name}\0${m.sql}\0`);
    return h.digest('hex').slice(0, 16);
  });
  return migrationsKey;
}

async function pgliteVersion(): Promise<string> {
  const pkg = JSON.parse(await readFile(PGLITE_PACKAGE, 'utf8')) as { version: string };
  return pkg.version;
}

const pgliteTemplates = new Map<'bare' | 'migrated', Promise<Blob>>();

/**
 * The data directory of a fresh PGlite (`bare`) or of one with every migration applied
 * (`migrated`), as a tarball for `openDb({ loadDataDir })`. Built once per machine and kept.
 */
export function pgliteTemplate(which: 'bare' | 'migrated'): Promise<Blob> {
  let t = pgliteTemplates.get(which);
  if (!t) {
    t = loadOrBuildPgliteTemplate(which);
    pgliteTemplates.set(which, t);
    t.catch(() => pgliteTemplates.delete(which));
  }
  return t;
}

async function loadOrBuildPgliteTemplate(which: 'bare' | 'migrated'): Promise<Blob> {
  const key = which === 'bare' ? 'initdb' : await templateKey();
  const file = join(TEMPLATE_DIR, `pglite-${which}-${await pgliteVersion()}-${key}.tar`);
  try {
    return new Blob([await readFile(file)]);
  } catch {
    // not built yet on this machine
  }
  const lite = which === 'bare' ? await createPglite() : await createPglite({ loadDataDir: await pgliteTemplate('bare') });
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    if (which === 'migrated') await migrate(pgliteDb(lite));
    bytes = new Uint8Array(await (await lite.dumpDataDir('none')).arrayBuffer());
  } finally {
    await lite.close();
  }
  await mkdir(TEMPLATE_DIR, { recursive: true });
  const partial = `${file}.${randomBytes(6).toString('hex')}.partial`;
  await writeFile(partial, bytes);
  await rename(partial, file);
  return new Blob([bytes]);
}

const pgTemplates = new Map<string, Promise<string>>();

/** The name of a migrated template database on the PostgreSQL at adminUrl (made when missing). */
export function pgTemplateDatabase(adminUrl: string): Promise<string> {
  let t = pgTemplates.get(adminUrl);
  if (!t) {
    t = buildPgTemplate(adminUrl);
    pgTemplates.set(adminUrl, t);
    t.catch(() => pgTemplates.delete(adminUrl));
  }
  return t;
}

async function buildPgTemplate(adminUrl: string): Promise<string> {
  const name = `ledgerline_tpl_${await templateKey()}`;
  const exists = await withAdmin(adminUrl, async (c) => (await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount! > 0);
  if (exists) return name;
  const building = `ledgerline_tplbuild_${randomBytes(6).toString('hex')}`;
  await withAdmin(adminUrl, (c) => c.query(`CREATE DATABASE ${building}`));
  try {
    const url = new URL(adminUrl);
    url.pathname = `/${building}`;
    const db = await openDb({ databaseUrl: url.toString(), poolSize: 1 });
    try {
      await migrate(db);
    } finally {
      await db.close();
    }
    // The pool's backends may take a moment to leave after close (55006): try again shortly.
    for (let attempt = 1; ; attempt++) {
      try {
        await withAdmin(adminUrl, (c) => c.query(`ALTER DATABASE ${building} RENAME TO ${name}`));
        break;
      } catch (err) {
        if ((err as { code?: string }).code !== '55006' || attempt >= 20) throw err;
        await new Promise((r) => setTimeout(r, 100 * attempt));
      }
    }
  } catch (err) {
    await withAdmin(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`)).catch(() => {});
    // Another process renamed its copy first: theirs is as good as ours.
    if ((err as { code?: string }).code === '42P04') return name;
    throw err;
  }
  return name;
}

async function withAdmin<T>(adminUrl: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 3_000 });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}
