import { useCallback, useMemo, useState } from 'react';
import { orderRules, type MappingRule } from '../../../schema/mapping-rules.ts';
import { errorText } from '../../lib/error-text.ts';
import { useOnlineList } from '../../lib/use-online-list.ts';
import { applyResultText, type RuleNames } from './accounting-forms.ts';
import type { SelectOption } from '../../components/select-field.tsx';
import type { DataClient } from '../../data-access/types.ts';
import type { ReferenceView } from '../../lib/reference-data.ts';

export interface MappingRulesSectionProps {
  client: DataClient;
  online: boolean;
  reference: ReferenceView;
  vendorName(id: string): string;
  vendorOptions: readonly SelectOption[];
}

/**
 * The rules read from the server (online only) in the order they are tried, the names a rule is
 * shown with, the rule being edited or deleted, and "Apply rules" with its answer.
 */
export function useMappingRules({ client, online, reference, vendorName }: Omit<MappingRulesSectionProps, 'vendorOptions'>) {
  const { list, reload } = useOnlineList(online, 'rules', useCallback(async () => {
    const r = await client.mappingRules();
    return r.ok ? { ok: true as const, rows: r.rules } : r;
  }, [client]));
  const [editing, setEditing] = useState<MappingRule | 'new' | null>(null);
  const [deleting, setDeleting] = useState<MappingRule | null>(null);
  const [applying, setApplying] = useState(false);
  const [applied, setApplied] = useState<{ tone: 'info' | 'error'; text: string } | null>(null);
  const rules = useMemo(() => (list.state === 'ready' ? orderRules(list.rows) : []), [list]);
  const names = useMemo<RuleNames>(() => {
    const categories = new Map(reference.data.tracking_categories.map((c) => [c.id, c.name]));
    return {
      glAccount: reference.names.glAccount,
      department: reference.names.department,
      vendor: vendorName,
      tracking: (category, option) => ({ category: categories.get(category) ?? '', option: reference.names.trackingOption(category, option) }),
    };
  }, [reference, vendorName]);

  async function apply() {
    setApplying(true);
    setApplied(null);
    try {
      const r = await client.applyMappingRules();
      setApplied(r.ok ? { tone: 'info', text: applyResultText(r.updated) } : { tone: 'error', text: errorText(r.error) });
    } finally {
      setApplying(false);
    }
  }

  return { list, reload, rules, names, editing, setEditing, deleting, setDeleting, applying, applied, apply };
}
