import { randomBytes } from 'node:crypto';
import { promises as dns } from 'node:dns';
import type { DomainCheckOutcome } from '../../../schema/api/calls-sso.ts';
import { domainChallengeName, domainChallengeValue } from '../../../schema/sso-rules.ts';
import { dnsResolver } from '../../core/outbound-fetch.ts';

/**
 * Proof that a business owns an SSO provider's email domain (issue 24): the admin adds a DNS TXT
 * record `_ledgerline-challenge.<domain>` holding `ledgerline-domain-verification=<token>` (a
 * random token per claim), and the verify call looks it up through the server's resolver
 * (LEDGERLINE_DNS_SERVER when set, so tests run their own DNS server; else the system's).
 */

/** A claim's random token (192 bits). */
export const newDomainToken = (): string => randomBytes(24).toString('base64url');

/** What the admin adds at their DNS host. */
export const domainChallenge = (domain: string, token: string) => ({ record_name: domainChallengeName(domain), record_value: domainChallengeValue(token) });

const NOT_FOUND = new Set(['ENOTFOUND', 'ENODATA', 'NOTFOUND', 'NODATA']);

/** Looks the record up: proven when one TXT record (its strings joined) is exactly the claim's value. */
export async function lookupDomainChallenge(domain: string, token: string, dnsServer: string | null): Promise<DomainCheckOutcome> {
  const resolver = dnsResolver(dnsServer) ?? new dns.Resolver({ timeout: 3000, tries: 2 });
  let records: string[][];
  try {
    records = await resolver.resolveTxt(domainChallengeName(domain));
  } catch (err) {
    return NOT_FOUND.has((err as { code?: string }).code ?? '') ? 'no_record' : 'lookup_failed';
  }
  if (records.length === 0) return 'no_record';
  const expected = domainChallengeValue(token);
  return records.some((chunks) => chunks.join('').trim() === expected) ? 'proven' : 'no_match';
}

/** Words for the admin about one check. */
export function domainCheckMessage(outcome: DomainCheckOutcome, domain: string): string {
  const name = domainChallengeName(domain);
  switch (outcome) {
    case 'proven':
      return `Verified: ${domain} belongs to your business. You can now enable single sign-on for it.`;
    case 'no_record':
      return `We looked up ${name} and found no TXT record. Add it at your DNS host; changes can take a few minutes (sometimes hours) to appear. Then verify again.`;
    case 'no_match':
      return `We looked up ${name} and found TXT records, but none with the value shown here. Check the value was copied whole, then verify again.`;
    case 'lookup_failed':
      return `We could not look up ${name}: the DNS lookup failed or timed out. Try again in a few minutes.`;
  }
}
