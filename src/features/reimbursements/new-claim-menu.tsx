import type { ReimbursementType } from '../../../schema/entities/reimbursement.ts';
import { Menu, MenuItem } from '../../components/menu.tsx';
import { buttonClass } from '../../components/button.tsx';
import { ClaimIcon } from './claim-icon.tsx';

const CHOICES: readonly { type: ReimbursementType; label: string }[] = [
  { type: 'OUT_OF_POCKET', label: 'Out-of-pocket' },
  { type: 'MILEAGE', label: 'Mileage' },
  { type: 'PER_DIEM', label: 'Per diem' },
];

/** The "New" button: a menu of the three claim types, each opening its form. */
export function NewClaimMenu({ label = 'New', onChoose }: { label?: string; onChoose(type: ReimbursementType): void }) {
  return (
    <Menu label="New reimbursement" trigger={<>{label}<span aria-hidden="true"> ▾</span></>} triggerClassName={buttonClass({ variant: 'primary' })}>
      {CHOICES.map((c) => (
        <MenuItem key={c.type} onSelect={() => onChoose(c.type)}>
          <ClaimIcon type={c.type} /> {c.label}
        </MenuItem>
      ))}
    </Menu>
  );
}
