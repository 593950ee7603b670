import { describe, expect, it } from 'vitest';
import { threadState } from './use-comment-thread.ts';

const rows = { comments: [], total: 0 };
const kept = { comments: [], total: 3 };

describe('threadState: what a thread shows', () => {
  it.each([
    ['offline, never read', false, null, null, { state: 'offline', kept: null }],
    ['offline, read earlier', false, { rows, error: null, offline: false }, kept, { state: 'offline', kept }],
    ['online, no answer yet: loading (a skeleton)', true, null, kept, { state: 'loading' }],
    ['online, answered', true, { rows, error: null, offline: false }, rows, { state: 'ready', ...rows }],
    ['the call never reached the server', true, { rows: null, error: 'x', offline: true }, kept, { state: 'offline', kept }],
    ['refused, with what was kept', true, { rows: null, error: 'Not found.', offline: false }, kept, { state: 'error', message: 'Not found.', kept }],
  ] as const)('%s', (_what, online, answer, keptRows, want) => {
    expect(threadState(online, answer, keptRows)).toEqual(want);
  });
});
