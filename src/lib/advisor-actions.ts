import { ADVISOR_RIGHTS, advisorRefusal, type AdvisorRight } from '../../schema/firm-authorization.ts';
import type { CallAuth, Surface } from '../../schema/api/scopes.ts';

/**
 * Issue 31 (§3 "The firm user in a client"): whether an action is offered to the person signed in.
 * A firm user acting in a client (the token's `external_firm_id`) is offered only what the firm's
 * rights open (`advisorRefusal`, the server's own rule, FIRM_7003); with the rights unknown on this
 * device, the widest set is assumed, so only what no right opens (paying, moving money, the team) is
 * hidden, and the server still refuses the rest. Everyone else: offered.
 */
export function offeredTo(
  externalFirmId: string | null | undefined,
  call: { id: string; method: string; readOnly: boolean; auth: CallAuth; surfaces: readonly Surface[] },
  rights: readonly AdvisorRight[] = ADVISOR_RIGHTS,
): boolean {
  if (!externalFirmId) return true;
  return advisorRefusal(call, rights) === null;
}
