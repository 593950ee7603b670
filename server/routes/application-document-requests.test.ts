import { describe, expect, it } from 'vitest';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { refusal } from '../test-fixtures.ts';
import { runOpsReview } from '../domain/applications/ops-review.ts';
import { appCall, fillApplication, startApplication, uploadPage } from './application-test-kit.ts';

let n = 0;
const fresh = () => `requests-${Date.now()}-${++n}@example.test`;

/**
 * Issue 31, operations document requests: a MANUAL_REVIEW application takes the KYC documents its
 * open requests ask for (and nothing else), each person's upload counts, the request is FULFILLED
 * once every person named uploaded one, and `ops:review <id>` lists it with the uploads.
 */
describe.each(await testDatabases())('application document requests on %s', (kind) => {
  const t = useTestApp(kind, { devOutbox: true });

  it('in review, each person uploads the asked ID; the request is fulfilled when all did; other writes stay refused', async () => {
    const who = await startApplication(t.app, fresh());
    await fillApplication(t.app, who, { ownerName: 'Marta Verbotene' });
    expect((await appCall(t.app, who, 'PATCH', '/submit', {})).body.status).toBe('MANUAL_REVIEW');
    const listed = await appCall(t.app, who, 'GET', '/document-requests');
    expect(listed.body.requests).toMatchObject([{ doc_type: 'GOVERNMENT_ID', status: 'OPEN' }]);
    const requestId = listed.body.requests[0].id as string;
    expect(await runOpsReview(t.db, [who.appId], new Date())).toContain('GOVERNMENT_ID: OPEN');

    const draft = (await appCall(t.app, who, 'GET', '')).body;
    const people = draft.kyc_individuals.map((k: { id: string }) => k.id) as string[];
    expect(people).toHaveLength(2);
    // Not asked for: another type, a KYB document, an answer, a page of a document from before.
    expect(refusal(await appCall(t.app, who, 'PATCH', '/kyc-documents', { documents: [{ doc_type: 'PASSPORT', kyc_individual_id: people[0] }] }))).toEqual([409, 'APPLICATION_7001']);
    expect(refusal(await appCall(t.app, who, 'PATCH', '/kyb-documents', { documents: [{ doc_type: 'GOVERNMENT_ID' }] }))).toEqual([409, 'APPLICATION_7001']);
    expect(refusal(await appCall(t.app, who, 'PATCH', '/products', { products: ['CARDS'] }))).toEqual([409, 'APPLICATION_7001']);
    const passport = draft.documents.find((d: { kind: string }) => d.kind === 'KYC').id as string;
    expect(refusal(await uploadPage(t.app, who, 'kyc', passport))).toEqual([409, 'APPLICATION_7001']);

    const added = await appCall(t.app, who, 'PATCH', '/kyc-documents', {
      documents: people.map((id) => ({ doc_type: 'GOVERNMENT_ID', kyc_individual_id: id })),
    });
    expect(added.status, added.text).toBe(200);
    const ids = added.body.documents.filter((d: { doc_type: string }) => d.doc_type === 'GOVERNMENT_ID').map((d: { id: string }) => d.id) as string[];
    expect(ids).toHaveLength(2);
    const first = await uploadPage(t.app, who, 'kyc', ids[0]!);
    expect(first.status).toBe(200);
    expect((await appCall(t.app, who, 'GET', '/document-requests')).body.requests[0].status).toBe('OPEN');
    expect((await uploadPage(t.app, who, 'kyc', ids[1]!)).status).toBe(200);
    expect((await appCall(t.app, who, 'GET', '/document-requests')).body.requests).toMatchObject([{ id: requestId, status: 'FULFILLED' }]);

    const report = await runOpsReview(t.db, [who.appId], new Date());
    expect(report).toContain(`Request ${requestId} GOVERNMENT_ID: FULFILLED`);
    expect(report).toContain('Marta Verbotene: 1 page');
    expect(report).toContain('Ada Lovelace: 1 page');
    // Fulfilled: nothing more is taken.
    expect(refusal(await uploadPage(t.app, who, 'kyc', ids[0]!))).toEqual([409, 'APPLICATION_7001']);
    expect(await t.db.query('SELECT status FROM financing_applications WHERE id = $1', [who.appId])).toEqual([{ status: 'MANUAL_REVIEW' }]);
  });

  it('an approved application has no requests and takes no document', async () => {
    const who = await startApplication(t.app, fresh());
    const draft = await fillApplication(t.app, who);
    expect((await appCall(t.app, who, 'PATCH', '/submit', {})).body.status).toBe('APPROVED');
    expect((await appCall(t.app, who, 'GET', '/document-requests')).body.requests).toEqual([]);
    const person = draft.kyc_individuals[0].id as string;
    expect(refusal(await appCall(t.app, who, 'PATCH', '/kyc-documents', { documents: [{ doc_type: 'GOVERNMENT_ID', kyc_individual_id: person }] }))).toEqual([409, 'APPLICATION_7001']);
  });
});
