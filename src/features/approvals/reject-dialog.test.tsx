import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { RejectDialog } from './reject-dialog.tsx';

/** The reject dialog on the shared ConfirmDialog: its names (tests/e2e/approvals.test.ts presses "Reject"). */
const buttons = (html: string) => [...html.matchAll(/<button[^>]*>(.*?)<\/button>/g)].map((m) => m[1]!.replace(/<[^>]+>/g, ''));

describe('RejectDialog', () => {
  it('asks for the reason, with Cancel and a danger Reject', () => {
    const html = renderToStaticMarkup(<RejectDialog kinds={['reimbursement']} subject="Ada Lovelace: Lyft, $42.60" onReject={async () => {}} onClose={() => {}} />);
    expect(html).toContain('Reject this claim?');
    expect(html).toContain('Ada Lovelace: Lyft, $42.60');
    expect(html).toMatch(/<textarea[^>]*required/);
    expect(buttons(html)).toEqual(['Cancel', 'Reject']);
    expect(html).toMatch(/class="[^"]*btn-danger[^"]*"[^>]*type="submit"|type="submit"[^>]*class="[^"]*btn-danger/);
  });

  it('counts several', () => {
    const html = renderToStaticMarkup(<RejectDialog kinds={['reimbursement', 'card_request']} onReject={async () => {}} onClose={() => {}} />);
    expect(buttons(html)).toEqual(['Cancel', 'Reject 2']);
  });
});
