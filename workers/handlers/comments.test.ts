import { describe, expect, it } from 'vitest';
import type { Comment } from '../../schema/api/calls-comments.ts';
import { errorBody } from '../../schema/errors.ts';
import { jsonResponse } from '../../sync/testing.ts';
import { methodAndPath, signedInWorker } from '../testing/signed-in-worker.ts';
import { COMMENT_OFFLINE } from './comments.ts';

const TXN = '00000000-0000-4000-8000-0000000000a1';
const ID = '00000000-0000-4000-8000-0000000000c1';
const DAN = '00000000-0000-4000-8000-0000000000d1';
const stored: Comment = {
  id: ID, subject_type: 'transaction', subject_id: TXN, author_id: '00000000-0000-4000-8000-0000000000e1', author_name: 'Maya Chen',
  workflow_id: null, body: 'Hi @Dan Park', mentions: [{ user_id: DAN, name: 'Dan Park' }], created_at: '2026-11-29T18:00:00.000Z', can_delete: true,
};

/** A worker whose server answers the comment calls with `answer`; `sent` records method and path. */
const worker = (answer: (method: string, path: string, body: unknown) => Response | null) =>
  signedInWorker({ calls: /^\/v1\/auth\/comments/, record: methodAndPath, route: (r) => answer(r.method, r.path, r.body) });

describe('comment calls (issue 29, online only)', () => {
  it('refuses offline before sending anything', async () => {
    const { service, sent } = await worker(() => null);
    await service.setOnline(false);
    expect(await service.comments('transaction', TXN)).toEqual(COMMENT_OFFLINE);
    expect(await service.createComment({ id: ID, subject_type: 'transaction', subject_id: TXN, body: 'x' })).toEqual(COMMENT_OFFLINE);
    expect(await service.deleteComment(ID)).toEqual(COMMENT_OFFLINE);
    expect(sent).toEqual([]);
  });

  it('reads a thread, sends the client’s id and mentions, deletes by id', async () => {
    const bodies: unknown[] = [];
    const { service, sent } = await worker((method, _p, body) => {
      if (method === 'GET') return jsonResponse(200, { data: [stored], total: 1 });
      if (method === 'POST') return (bodies.push(body), jsonResponse(201, stored));
      return jsonResponse(200, { id: ID, deleted: true });
    });
    expect(await service.comments('transaction', TXN)).toEqual({ ok: true, comments: [stored], total: 1 });
    expect(await service.createComment({ id: ID, subject_type: 'transaction', subject_id: TXN, body: 'Hi @Dan Park', mention_ids: [DAN] }))
      .toEqual({ ok: true, comment: stored });
    expect(await service.deleteComment(ID)).toEqual({ ok: true });
    expect(sent).toEqual(['GET /v1/auth/comments', 'POST /v1/auth/comments', `DELETE /v1/auth/comments/${ID}`]);
    expect(bodies).toEqual([{ id: ID, subject_type: 'transaction', subject_id: TXN, body: 'Hi @Dan Park', mention_ids: [DAN] }]);
  });

  it('a mention refused comes back in the server’s words', async () => {
    const { service } = await worker(() => jsonResponse(422, errorBody('COMMENT_7002', 'Dan Park cannot see this transaction.', { 'mention_ids.0': 'Dan Park' })));
    expect(await service.createComment({ subject_type: 'transaction', subject_id: TXN, body: 'Hi @Dan Park', mention_ids: [DAN] }))
      .toMatchObject({ ok: false, error: { error_code: 'COMMENT_7002', message: 'Dan Park cannot see this transaction.', errors: { 'mention_ids.0': 'Dan Park' } } });
  });
});
