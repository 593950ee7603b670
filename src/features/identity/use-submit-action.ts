/** Moved down to lib/ (shared with other features' forms). */
export { useSubmitAction } from '../../lib/use-submit-action.ts';
