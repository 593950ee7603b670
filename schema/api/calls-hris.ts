/**
 * Issue 32: the HRIS connection: CSV and SFTP-drop imports with a diff. Calls are declared here (defineCall) and listed in HRIS_CALLS; the catalogue
 * (calls.ts) includes them.
 */
export const HRIS_CALLS = [] as const;
