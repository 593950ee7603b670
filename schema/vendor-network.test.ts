import { describe, expect, it } from 'vitest';
import {
  d9Outcome, EDIT_PROPOSAL_STATUSES, editProposalTransition, einPrefixValid, LINK_STATUSES, linkTransition, networkEmailRefusal, tinCheck,
} from './vendor-network.ts';

describe('link transitions', () => {
  it.each([
    ['INVITED', 'join', 'ACTIVE'], ['INVITED', 'decline', 'DECLINED'],
    ['ACTIVE', 'join', null], ['ACTIVE', 'decline', null], ['DECLINED', 'join', null], ['DECLINED', 'decline', null],
  ] as const)('%s --%s--> %s', (from, action, to) => expect(linkTransition(from, action)).toBe(to));
  it('covers every status', () => expect(LINK_STATUSES).toHaveLength(3));
});

describe('edit proposal transitions', () => {
  for (const from of EDIT_PROPOSAL_STATUSES) {
    for (const action of ['accept', 'reject', 'withdraw'] as const) {
      it(`${from} --${action}-->`, () => {
        const r = editProposalTransition(from, action);
        if (from === 'PENDING') {
          expect(r).toEqual({ ok: true, next: { accept: 'ACCEPTED', reject: 'REJECTED', withdraw: 'WITHDRAWN' }[action] });
        } else {
          expect(r).toEqual({ ok: false, code: 'VENDOR_NETWORK_7001', message: `This change was already ${from.toLowerCase()}.` });
        }
      });
    }
  }
});

describe('TIN checks', () => {
  it.each([
    ['12-3456789', true], ['123456789', true], ['00-1234567', false], ['07-1234567', false], ['89-1234567', false],
    ['98-7654321', true], ['1-23456789', false], ['12345678', false],
  ])('EIN prefix %s → %s', (ein, ok) => expect(einPrefixValid(ein) && /^\d{2}-?\d{7}$/.test(ein)).toBe(ok));

  it.each([
    ['EIN', '12-3456789', '123456789'], ['EIN', '987654321', '987654321'], ['SSN', '123-45-6789', '123456789'], ['SSN', '123456789', '123456789'],
  ] as const)('%s %s is stored as %s', (type, tin, digits) => expect(tinCheck(type, tin)).toEqual({ ok: true, digits }));

  it.each([
    ['EIN', '12-345678'], ['EIN', '00-1234567'], ['EIN', 'ab-cdefghi'], ['SSN', '000-12-3456'], ['SSN', '666-12-3456'],
    ['SSN', '912-12-3456'], ['SSN', '123-00-4567'], ['SSN', '123-45-0000'], ['SSN', '12-3456789'],
  ] as const)('%s %s is refused naming tin', (type, tin) => {
    const r = tinCheck(type, tin);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toMatch(/^tin /);
  });
});

describe('networkEmailRefusal (BILL_PAY_7017)', () => {
  const members = ['owner@payer.test', 'ap@payer.test'];
  it.each([
    ['billing@vendor.test', null],
    ['Billing+ap@Vendor.test', null],
    ['not an email', 'not an email address'],
    ['a@b', 'not an email address'],
    ['noreply@vendor.test', 'no-reply'],
    ['No-Reply+x@vendor.test', 'no-reply'],
    ['postmaster@vendor.test', 'no-reply'],
    ['AP@payer.test', 'member of your business'],
  ])('%s', (email, reason) => {
    const r = networkEmailRefusal(email, members);
    if (reason === null) expect(r).toBeNull();
    else expect(r).toContain(reason);
  });
});

describe('D9 outcome', () => {
  it.each([[false, false, 'fill'], [false, true, 'fill'], [true, true, 'none'], [true, false, 'propose']] as const)(
    'holds=%s same=%s → %s', (holds, same, out) => expect(d9Outcome(holds, same)).toBe(out),
  );
});
