import { useMemo } from 'react';
import type { DataClient, ReferenceData } from '../../../data-access/types.ts';
import { useAppState, useDataClient } from '../../../data-access/data-context.tsx';
import { useReferenceAnswer } from '../../../lib/reference-data.ts';
import { peopleNames } from './org-view.ts';

export interface OrgData {
  client: DataClient;
  /** null until the mirror's reference data is read (the page shows its skeleton). */
  data: ReferenceData | null;
  names: ReadonlyMap<string, string>;
  /** Writes are direct calls: online only. */
  online: boolean;
}

const NO_NAMES: ReadonlyMap<string, string> = new Map();

/** The mirror's reference data (departments, locations, entities, people), re-read when the worker says it changed. */
export function useOrgData(): OrgData {
  const client = useDataClient();
  const version = useAppState((s) => s.referenceVersion);
  const online = useAppState((s) => s.online && (s.status?.online ?? true));
  const data = useReferenceAnswer(client, version);
  const names = useMemo(() => (data ? peopleNames(data.users) : NO_NAMES), [data]);
  return { client, data, names, online };
}
