/** Moved down to lib/ (vendors' bank account reveal and set need it too). */
export { useSensitiveAction } from '../../lib/use-sensitive-action.ts';
