import { useEffect, useMemo, useState } from 'react';
import type { FeatureFlags } from '../../../schema/feature-flags.ts';
import type { BusinessEntity } from '../../../schema/api/calls-admin.ts';
import type { DataClient } from '../../data-access/types.ts';
import { buildReferenceView, EMPTY_REFERENCE, useReferenceAnswer, type ReferenceView } from '../../lib/reference-data.ts';
import { useAnswer } from '../../lib/use-answer.ts';
import { overlayAnswers, type Answer, type Person } from './people-view.ts';

/**
 * The business's people from the mirror (users are reference data: the list works offline), with
 * the server's latest answers on top; null until the first answer of the mirror.
 */
export function usePeople(client: DataClient, version: number, answers: ReadonlyMap<string, Answer>): { people: Person[] | null; reference: ReferenceView } {
  // One read gives both the names and the list: two reads could answer apart, and the list then
  // showed "No one here yet" for a moment while its people were on their way.
  const data = useReferenceAnswer(client, version);
  const reference = useMemo(() => buildReferenceView(data ?? EMPTY_REFERENCE), [data]);
  const users = data?.users ?? null;
  const people = useMemo(() => (users ? overlayAnswers(users, answers) : null), [users, answers]);
  return { people, reference };
}

/** The business's feature flags (cached by the worker for offline use); null until read. */
export function useFlags(client: DataClient): FeatureFlags | null {
  return useAnswer(() => client.flags(), [client]);
}

/** Business entities (not mirrored): read when online, for the invite form and the drawer. */
export function useEntities(client: DataClient, online: boolean): BusinessEntity[] {
  const [entities, setEntities] = useState<BusinessEntity[]>([]);
  useEffect(() => {
    if (!online) return;
    let live = true;
    void client.businessEntities().then((r) => live && r.ok && setEntities(r.entities));
    return () => {
      live = false;
    };
  }, [client, online]);
  return entities;
}
