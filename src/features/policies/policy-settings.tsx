import { Link } from '@tanstack/react-router';
import { canSeeAllTransactions } from '../../../schema/roles.ts';
import { Section, SettingRow } from '../../components/section.tsx';
import { useAppState } from '../../data-access/data-context.tsx';

/** Settings → Expense policies (issue 29): admins and the business-wide readers go to /policies from here. */
export function PolicySettingsSection() {
  const user = useAppState((s) => s.session?.user ?? null);
  if (!user || !canSeeAllTransactions(user)) return null;
  return (
    <Section title="Expense policies" description="What card charges and claims need: receipts, memos, coding, caps.">
      <SettingRow title="Policies and compliance" description="Each person sees what they miss in Missing items; compliance and reminders per person or department.">
        <Link to="/policies" className="btn btn-secondary btn-sm">Expense policies</Link>
      </SettingRow>
    </Section>
  );
}
