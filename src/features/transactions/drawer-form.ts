import type { CodingPatch } from '../../../schema/commands/coding-patch.ts';
import type { TransactionView } from '../../data-access/types.ts';
import { diffCoding, type CodingValues } from './coding-patch.ts';

/** The drawer's form: the coding, and the attendees as typed (one name or email a line). */
export type DrawerValues = CodingValues & { attendees: string };

export const valuesOf = (t: TransactionView): DrawerValues => ({
  memo: t.memo,
  gl_account_id: t.gl_account_id,
  department_id: t.department_id,
  location_id: t.location_id,
  tracking: { ...t.tracking },
  attendees: (t.attendees ?? []).join('\n'),
});

/** Attendees typed one a line (or comma-separated): trimmed, blanks and repeats dropped. */
export const attendeeList = (text: string) => [...new Set(text.split(/[\n,]/).map((a) => a.trim()).filter(Boolean))];

/** The coding patch the form asks for (attendees replace the list when they changed), or null. */
export function drawerPatch(txn: TransactionView, form: DrawerValues): CodingPatch | null {
  const patch: CodingPatch = diffCoding(valuesOf(txn), form) ?? {};
  const attendees = attendeeList(form.attendees);
  if (attendees.join('\n') !== (txn.attendees ?? []).join('\n')) patch.attendees = attendees;
  return Object.keys(patch).length ? patch : null;
}
