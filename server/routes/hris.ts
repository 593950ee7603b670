import type { DomainHandlers } from '../http/handler.ts';

/** Issue 32: the HRIS connection: CSV and SFTP-drop imports with a diff (schema/api/calls-hris.ts). */
export const hrisHandlers = {} satisfies DomainHandlers;
