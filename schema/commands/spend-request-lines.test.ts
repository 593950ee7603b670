import { describe, expect, it } from 'vitest';
import { MAX_REQUEST_LINES, requestLineSchema } from '../entities/spend-request.ts';
import { requestLines } from './spend-request.ts';

/**
 * Issue 28: a request's line ids are derived from its id and the position, by the device offline
 * and by the server alike (server/domain/procurement/spend-requests.ts), so they must be valid
 * line rows, distinct within a request, the same whatever the id's case, and different for
 * requests whose ids differ in their first 24 characters (migration 050 keeps those unique).
 */
const ID = '3f2b8c1e-9a4d-4e7b-8c21-5d6e7f8a9b0c';
const line = (n: number) => ({ description: `Item ${n}`, quantity: n + 1, unit_price: 100 * n });

describe('requestLines', () => {
  it('derives valid, distinct line ids for the longest request, keeping each line\'s fields in order', () => {
    const lines = requestLines(ID, Array.from({ length: MAX_REQUEST_LINES }, (_, i) => line(i)));
    for (const l of lines) expect(requestLineSchema.parse(l)).toEqual(l);
    expect(new Set(lines.map((l) => l.id)).size).toBe(MAX_REQUEST_LINES);
    expect(lines.map((l) => l.description)).toEqual(Array.from({ length: MAX_REQUEST_LINES }, (_, i) => `Item ${i}`));
  });

  it.each([
    ['the same id again', ID, true],
    ['the id in upper case', ID.toUpperCase(), true],
    ['an id differing in its first 24 characters', `3f2c${ID.slice(4)}`, false],
  ])('%s gives %s line ids', (_name, other, same) => {
    const mine = requestLines(ID, [line(1), line(2)]).map((l) => l.id);
    const theirs = requestLines(other, [line(1), line(2)]).map((l) => l.id);
    expect(theirs.every((id, i) => id === mine[i])).toBe(same);
    expect(theirs.some((id) => mine.includes(id))).toBe(same);
  });
});
