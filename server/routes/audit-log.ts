/** Issue 31: the audit-log read (schema/api/calls-audit-log.ts). */
import type { DomainHandlers } from '../http/handler.ts';

export const auditLogHandlers = {} satisfies DomainHandlers;
