import { describe, expect, it } from 'vitest';
import type { AppState } from '../data-access/app-state.ts';
import { telemetryIds } from './telemetry-ids.ts';

type Signed = Pick<AppState, 'session' | 'surfaceSession'>;
const business = (firm?: string) => ({ session: { user: { id: 'u1' }, business: { id: 'b1' }, external_firm_id: firm }, surfaceSession: null }) as unknown as Signed;
const on = (surface: Record<string, string>) => ({ session: null, surfaceSession: { surface } }) as unknown as Signed;

describe('telemetryIds', () => {
  it.each([
    ['signed out', { session: null, surfaceSession: null }, null],
    ['a spend user', business(), { spend_user_id: 'u1', business_id: 'b1', external_firm_id: null }],
    ['a firm user in a client', business('f1'), { spend_user_id: 'u1', business_id: 'b1', external_firm_id: 'f1' }],
    ['the advisor console', on({ kind: 'ADVISOR_CONSOLE', external_firm_id: 'f1', external_firm_user_id: 'fu1' }), { spend_user_id: null, business_id: null, external_firm_id: 'f1' }],
    ['the vendor portal', on({ kind: 'VENDOR_PORTAL', network_vendor_id: 'v1' }), { spend_user_id: null, business_id: null, external_firm_id: null }],
  ])('%s', (_, signed, ids) => expect(telemetryIds(signed as Signed)).toEqual(ids));
});
