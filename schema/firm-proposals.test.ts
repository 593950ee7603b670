import { describe, expect, it } from 'vitest';
import { PROPOSAL_STATUSES } from './entities/firm-proposal.ts';
import { narrowedRights, parseClientsCsv, proposalRefusalMessage, proposalTransition, type ProposalAction } from './firm-proposals.ts';

describe('proposal transitions (issue 31, design §2.6)', () => {
  const ALLOWED: Record<string, string> = {
    'DRAFT validate proposer': 'PENDING',
    'DRAFT revoke proposer': 'REVOKED',
    'PENDING revoke proposer': 'REVOKED',
    'PENDING accept receiver': 'ACCEPTED',
    'PENDING reject receiver': 'REJECTED',
  };
  const SIDE: Record<ProposalAction, 'proposer' | 'receiver'> = { validate: 'proposer', revoke: 'proposer', accept: 'receiver', reject: 'receiver' };
  const cases = PROPOSAL_STATUSES.flatMap((s) => (['validate', 'revoke', 'accept', 'reject'] as const).map((a) => [s, a] as const));

  it.each(cases)('%s → %s', (status, action) => {
    expect(proposalTransition(status, action, SIDE[action])).toBe(ALLOWED[`${status} ${action} ${SIDE[action]}`] ?? 'FIRM_7002');
    // The other side never takes it, whatever the status.
    expect(proposalTransition(status, action, SIDE[action] === 'proposer' ? 'receiver' : 'proposer')).toBe('NOT_YOURS');
  });

  it('says what the proposal was and what was asked', () => {
    expect(proposalRefusalMessage('REVOKED', 'accept')).toBe('This proposal was revoked and can\'t be accepted.');
    expect(proposalRefusalMessage('ACCEPTED', 'revoke')).toBe('This proposal was accepted and can\'t be revoked.');
  });

  it.each([
    [['READ', 'CODE'], undefined, ['READ', 'CODE']],
    [['READ', 'CODE'], ['READ'], ['READ']],
    [['READ', 'CODE'], ['READ', 'CLOSE_BOOKS'], null],
    [['READ', 'CODE'], ['CODE'], null],
  ] as const)('narrowing %j by %j', (proposed, asked, out) => {
    expect(narrowedRights(proposed, asked)).toEqual(out);
  });
});

describe('parseClientsCsv', () => {
  it('reads each row, refuses bad cells by column and repeated addresses by line', () => {
    const csv = '\uFEFFclient_email,client_name,rights\r\n"a@x.test","Acme, Inc.",READ;CODE\n\nb@x.test,,READ\nc@x.test,C,CODE\nA@x.test,Again,READ\n';
    expect(parseClientsCsv(csv)).toEqual([
      { line: 2, body: { client_email: 'a@x.test', client_name: 'Acme, Inc.', rights: ['READ', 'CODE'] } },
      { line: 4, errors: { client_name: 'client_name must be a valid name' } },
      { line: 5, errors: { rights: 'rights must be READ, CODE or CLOSE_BOOKS (with READ), separated by ;' } },
      { line: 6, errors: { client_email: 'client_email repeats line 2' } },
    ]);
  });

  it('answers one error when the header is not the expected one', () => {
    expect(parseClientsCsv('email,name\na@x.test,A')).toEqual([{ line: 1, errors: { header: 'the first line must be client_email,client_name,rights' } }]);
  });

  it('reads quotes inside quoted cells', () => {
    expect(parseClientsCsv('client_email,client_name,rights\nq@x.test,"The ""Q"" Co",READ')[0]).toEqual({
      line: 2, body: { client_email: 'q@x.test', client_name: 'The "Q" Co', rights: ['READ'] },
    });
  });
});
