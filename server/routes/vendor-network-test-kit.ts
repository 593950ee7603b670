import { randomUUID } from 'node:crypto';
import type { Hono } from 'hono';
import { expect } from 'vitest';
import type { Scope } from '../../schema/api/scopes.ts';
import { issueToken, openSession } from '../auth/session.ts';
import type { AppDeps } from '../core/deps.ts';
import type { Queryable } from '../db/db.ts';
import { request } from '../test-fixtures.ts';

/**
 * Vendor network test helpers (issue 31): invites through the API with the link read from the dev
 * outbox, portal tokens with a step-up scope (the step-up calls are the business surface's today),
 * and bills/payments inserted as the tenant-isolation test does.
 */
export const ACH = { holder_name: 'Acme LLC', routing_number: '021000021', account_number: '000123456789', type: 'CHECKING' } as const;
export const ACH2 = { holder_name: 'Acme LLC', routing_number: '011000015', account_number: '55554444', type: 'SAVINGS' } as const;
export const ADDRESS = { line1: '1 Market St', city: 'San Francisco', state: 'CA', postal_code: '94105', country: 'US' };

/** The link token of the newest network invite mailed to `email`. */
export async function mailedToken(db: Queryable, email: string): Promise<string> {
  const [mail] = await db.query<{ body: string }>('SELECT body FROM dev_outbox WHERE lower(recipient) = lower($1) ORDER BY id DESC LIMIT 1', [email]);
  const token = mail?.body.match(/#token=([A-Za-z0-9_-]+)/)?.[1];
  if (!token) throw new Error(`no network invite mailed to ${email}`);
  return token;
}

/** Invites a payer's vendor through the API and answers the mailed token. */
export async function invite(app: Hono, db: Queryable, token: string, vendorId: string, email: string): Promise<string> {
  const res = await request(app, 'POST', `/v1/auth/vendors/${vendorId}/network-invite`, { token, body: { email } });
  expect(res.status, res.text).toBe(201);
  return mailedToken(db, email);
}

/** Accepts a network invite as a new identity; answers its VENDOR_PORTAL token and network vendor. */
export async function acceptNew(app: Hono, db: Queryable, linkToken: string): Promise<{ token: string; networkVendorId: string; identityId: string }> {
  const res = await request(app, 'POST', `/v1/public/vendor-network/invites/${linkToken}/accept`, {
    body: { password: 'vendor-password-1', first_name: 'Val', last_name: 'Vendor' },
  });
  expect(res.status, res.text).toBe(201);
  const claims = JSON.parse(Buffer.from(res.body.id_token.split('.')[1], 'base64url').toString()) as {
    sub: string; ramp_surface: { kind: string; network_vendor_id: string };
  };
  expect(claims.ramp_surface.kind).toBe('VENDOR_PORTAL');
  return { token: res.body.id_token, networkVendorId: claims.ramp_surface.network_vendor_id, identityId: claims.sub };
}

/** A portal token with extra scopes (sensitive, email-otp) on a fresh session. */
export async function portalToken(app: { deps: AppDeps }, db: Queryable, identityId: string, networkVendorId: string, scopes: Scope[]): Promise<string> {
  const sessionId = await openSession(db, identityId);
  const { token } = await issueToken(app.deps, { identityId, sessionId, surface: { kind: 'VENDOR_PORTAL', network_vendor_id: networkVendorId } }, {
    scopes: ['default', ...scopes], mfaRequired: false, mfaAuthed: false,
  });
  return token;
}

/** A bill of the vendor (status as given) and, optionally, its payment attempt; answers their ids. */
export async function insertBill(
  db: Queryable, businessId: string, vendorId: string, createdBy: string,
  opts: { status: string; due: string; payment?: { status: string; rail?: string; created: string }; paymentDate?: string },
): Promise<{ billId: string; paymentId: string | null }> {
  const billId = randomUUID();
  await db.query(
    `WITH seq AS (UPDATE businesses SET change_seq = change_seq + 1 WHERE id = $2 RETURNING change_seq)
     INSERT INTO bills (id, business_id, vendor_id, invoice_number, invoice_key, invoice_date, due_date, currency, amount, status,
                        created_by, payment_attempt, payment_date, change_seq)
     SELECT $1, $2, $3, $4, upper($4), '2026-01-01', $6, 'USD', 4200, $5, $7, $8, $9, change_seq FROM seq`,
    [billId, businessId, vendorId, `INV-${billId.slice(0, 8)}`, opts.status, opts.due, createdBy, opts.payment ? 1 : 0, opts.paymentDate ?? null],
  );
  if (!opts.payment) return { billId, paymentId: null };
  const paymentId = randomUUID();
  await db.query(
    `INSERT INTO bill_payments (id, business_id, bill_id, attempt, payment_key, amount, currency, status, created_by, rail, created_at)
     VALUES ($1, $2, $3, 1, $4, 4200, 'USD', $5, $6, $7, $8)`,
    [paymentId, businessId, billId, `${billId}:1`, opts.payment.status, createdBy, opts.payment.rail ?? 'ACH', opts.payment.created],
  );
  return { billId, paymentId };
}
