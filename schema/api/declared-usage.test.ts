import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../scripts/coverage-doc.ts';
import { ERROR_CATALOGUE } from '../errors.ts';
import * as roles from '../roles.ts';
import { CATALOGUE } from './calls.ts';
import { PLANNED_ERRORS, PLANNED_ROLE_RULES, PLANNED_SCOPES } from './planned.ts';
import { SCOPES } from './scopes.ts';

/**
 * CI's half of "declared, then used": a role rule helper, token scope or error code that the
 * product's code (server/, src/, workers/, sync/, and schema/'s own rule modules) never uses fails
 * here unless schema/api/planned.ts lists it with the issue that will; a listed one that is used
 * already fails too (take it off the list). Tests and test kits do not count as use.
 */
const NOT_PRODUCT = /(\.test\.tsx?$|(^|\/)test-|test-kit|(^|\/)testing(\.ts$|\/)|^schema\/api\/(planned|spec-served|coverage)\.ts$)/;

function sources(dir: string): { path: string; text: string }[] {
  return readdirSync(join(REPO_ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile() && /\.tsx?$/.test(d.name))
    .map((d) => relative(REPO_ROOT, join(d.parentPath, d.name)))
    .filter((path) => !NOT_PRODUCT.test(path))
    .map((path) => ({ path, text: readFileSync(join(REPO_ROOT, path), 'utf8') }));
}

const product = ['server', 'src', 'workers', 'sync', 'schema'].flatMap(sources);
const serverCode = product.filter((f) => f.path.startsWith('server/'));
const textOf = (files: readonly { path: string; text: string }[], except: RegExp) =>
  files.filter((f) => !except.test(f.path)).map((f) => f.text).join('\n');
const quoted = (name: string) => new RegExp(`['"\`]${name}['"\`]`);

/** Names used (`used`) against the planned list: what is neither, and what is both. */
function check(names: readonly string[], used: (name: string) => boolean, planned: Readonly<Record<string, unknown>>) {
  return {
    unusedUnplanned: names.filter((n) => !used(n) && !(n in planned)),
    plannedButUsed: names.filter((n) => used(n) && n in planned),
    plannedUnknown: Object.keys(planned).filter((n) => !names.includes(n)),
  };
}
const clean = { unusedUnplanned: [], plannedButUsed: [], plannedUnknown: [] };

describe('declared in schema/ and used, or planned with its issue', () => {
  it('role rule helpers (schema/roles.ts) are called, or planned', () => {
    const helpers = Object.entries(roles).filter(([, v]) => typeof v === 'function').map(([k]) => k);
    expect(helpers.length).toBeGreaterThan(20);
    const code = textOf(product, /^schema\/roles\.ts$/);
    expect(check(helpers, (h) => new RegExp(`\\b${h}\\b`).test(code), PLANNED_ROLE_RULES)).toEqual(clean);
  });

  it('token scopes (schema/api/scopes.ts) are minted by the server and gate a call, or planned', () => {
    const gating = new Set(CATALOGUE.flatMap((c) => (c.auth.kind === 'scopes' ? c.auth.scopes : [])));
    const minting = textOf(serverCode, /^$/);
    const used = (s: string) => gating.has(s as never) && quoted(s).test(minting);
    expect(check(SCOPES, used, PLANNED_SCOPES)).toEqual(clean);
  });

  it('catalogued error codes (schema/errors.ts) are raised, or planned', () => {
    const code = textOf(product, /^schema\/errors\.ts$/);
    expect(check(Object.keys(ERROR_CATALOGUE), (c) => quoted(c).test(code), PLANNED_ERRORS)).toEqual(clean);
  });

  it('would name an unused helper that is not planned (the check can fail)', () => {
    expect(check(['usedOne', 'deadOne', 'plannedOne'], (n) => n === 'usedOne', { plannedOne: 1 })).toEqual({
      unusedUnplanned: ['deadOne'], plannedButUsed: [], plannedUnknown: [],
    });
    expect(check(['a'], () => true, { a: 1, gone: 2 })).toEqual({ unusedUnplanned: [], plannedButUsed: ['a'], plannedUnknown: ['gone'] });
  });
});
