/**
 * Issue 32: the jobs tray hears of a job a page started through one window event (a feature never
 * imports another): the page dispatches it, the tray reads the list again and polls while one runs.
 */
export const JOBS_CHANGED = 'ledgerline:jobs-changed';
export const announceJobsChanged = () => window.dispatchEvent(new Event(JOBS_CHANGED));
