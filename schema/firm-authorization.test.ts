import { describe, expect, it } from 'vitest';
import { CATALOGUE } from './api/calls.ts';
import { ADVISOR_RIGHT_OF_CALL, advisorRefusal, advisorRightOf } from './firm-authorization.ts';

const byId = new Map(CATALOGUE.map((c) => [c.id, c] as const));
const call = (id: string) => {
  const c = byId.get(id as never);
  if (!c) throw new Error(`${id} is not in the catalogue`);
  return c;
};

describe('the advisor gate (issue 31, design §3)', () => {
  it('names only catalogue calls of the main app', () => {
    for (const id of Object.keys(ADVISOR_RIGHT_OF_CALL)) expect(call(id).surfaces).toContain('BUSINESS');
  });

  it('denies by default: every business write is mapped or refused, so a new call starts closed', () => {
    for (const c of CATALOGUE) {
      if (!c.surfaces.includes('BUSINESS') || c.method === 'GET' || c.readOnly || c.surfaces.length > 1) continue;
      const right = advisorRightOf(c);
      if (c.id in ADVISOR_RIGHT_OF_CALL) expect(right).toBe(ADVISOR_RIGHT_OF_CALL[c.id]);
      else expect([c.id, right]).toEqual([c.id, null]);
    }
  });

  it.each([
    ['transactions.list', ['READ'], null],
    ['transactions.patch', ['READ'], 'Your firm\'s access to this business doesn\'t include coding. Ask the business to grant it.'],
    ['transactions.patch', ['READ', 'CODE'], null],
    ['transactions.bulkCode', ['READ', 'CODE'], null],
    ['accounting.syncCommit', ['READ', 'CODE'], 'Your firm\'s access to this business doesn\'t include closing the books. Ask the business to grant it.'],
    ['accounting.syncCommit', ['READ', 'CLOSE_BOOKS'], null],
    ['transactions.exportAsFile', ['READ', 'CODE'], 'Your firm\'s access to this business doesn\'t include closing the books. Ask the business to grant it.'],
    ['bills.bulk.payNow', ['READ', 'CODE', 'CLOSE_BOOKS'], 'Your firm\'s access to this business doesn\'t include this. Only the business\'s own people can do it.'],
    ['bills.create', ['READ', 'CODE', 'CLOSE_BOOKS'], 'Your firm\'s access to this business doesn\'t include this. Only the business\'s own people can do it.'],
    ['vendors.bankAccount.reveal', ['READ', 'CODE', 'CLOSE_BOOKS'], 'Your firm\'s access to this business doesn\'t include this. Only the business\'s own people can do it.'],
    ['auth.stepUp', ['READ', 'CODE', 'CLOSE_BOOKS'], 'Your firm\'s access to this business doesn\'t include this. Only the business\'s own people can do it.'],
  ] as const)('%s with %j', (id, rights, refusal) => {
    expect(advisorRefusal(call(id), rights)).toBe(refusal);
  });
});
