/** What a thread says offline (issue 29): its own small module, so the first load carries only this line of the thread's words. */
export const COMMENTS_OFFLINE = 'Comments load when you’re back online.';
