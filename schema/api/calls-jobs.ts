/**
 * Issue 32: async jobs, statements and event history. Calls are declared here (defineCall) and listed in JOB_CALLS; the catalogue
 * (calls.ts) includes them.
 */
export const JOB_CALLS = [] as const;
