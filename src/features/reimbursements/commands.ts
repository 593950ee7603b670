import type { ReimbursementType } from '../../../schema/entities/reimbursement.ts';
import type { Command } from '../../lib/commands.ts';

/**
 * The reimbursements feature's palette commands (exported by `index.ts`). Run from another page,
 * a "New …" command goes to the list and asks it to open that form once mounted; on the list,
 * the page's own commands (same ids, `newClaimCommands(open)`) open it at once.
 */
let newClaimRequested: ReimbursementType | null = null;

/** Read by the page as it mounts (its first state): the form a command asked for, if any. */
export const peekNewClaimRequest = (): ReimbursementType | null => newClaimRequested;
/** …and cleared once the page is mounted, so a later visit opens nothing. */
export function clearNewClaimRequest(): void {
  newClaimRequested = null;
}

const NEW_COMMANDS: readonly { type: ReimbursementType; id: string; label: string; keywords: readonly string[] }[] = [
  { type: 'OUT_OF_POCKET', id: 'reimbursements.new', label: 'New reimbursement', keywords: ['expense', 'claim', 'out-of-pocket', 'receipt'] },
  { type: 'MILEAGE', id: 'reimbursements.newMileage', label: 'New mileage claim', keywords: ['reimbursement', 'trip', 'car', 'distance'] },
  { type: 'PER_DIEM', id: 'reimbursements.newPerDiem', label: 'New per-diem claim', keywords: ['reimbursement', 'travel', 'meals', 'per diem'] },
];

/** The "New …" commands, each opening its form through `open`. */
export function newClaimCommands(open: (type: ReimbursementType, ctx: Parameters<Command['run']>[0]) => void): Command[] {
  return NEW_COMMANDS.map((c) => ({
    id: c.id,
    label: c.label,
    group: 'Reimbursements',
    keywords: c.keywords,
    ...(c.type === 'OUT_OF_POCKET' ? { shortcut: 'reimbursements.new' as const } : {}),
    run: (ctx) => open(c.type, ctx),
  }));
}

export const reimbursementsCommands: readonly Command[] = newClaimCommands((type, ctx) => {
  newClaimRequested = type;
  ctx.navigate('/reimbursements');
});
