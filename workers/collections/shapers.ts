import { ENTITIES, QUERIED_COLLECTIONS, type QueriedCollection } from '../../schema/collections.ts';
import { shaperSource } from '../../schema/entities/columns.ts';
import type { AnyEntityDef } from '../../schema/entities/define-entity.ts';

/**
 * Issue 26: the worker's row shapers are generated from the column maps into
 * `generated/<collection>.ts` (checked in; the app's CSP refuses `new Function`, and a generated
 * object literal keeps one hidden class per collection like the hand-written shapers did).
 * `shapers.test.ts` fails when the file is not what the definitions generate; regenerate with
 * `npx vitest run --project unit workers/collections/shapers.test.ts -u`.
 */

/** The queried collections (the worker keeps reference rows as the feed sends them: reference-cache.ts). */
export const SHAPED_COLLECTIONS = QUERIED_COLLECTIONS;

const HEADER = `// Generated from the entity's column map (schema/entities/columns.ts) by workers/collections/shapers.ts.
// Do not edit: change the entity's columns, then run
//   npx vitest run --project unit workers/collections/shapers.test.ts -u
import type { RowOf } from '../../../schema/collections.ts';
import type { EngineRowFor, ShaperIn } from '../shaper-types.ts';
`;

/** What the shapers' bodies use besides the header's types. */
const USES: [RegExp, string][] = [
  [/occurredDesc\(/, "import { occurredDesc } from '../../../schema/mirror.ts';"],
  [/MirroredRow</, "import type { MirroredRow } from '../../../schema/mirror.ts';"],
  [/NO_ITEMS/, '\n/** One shared empty list for absent list fields (shapers never mutate rows). */\nconst NO_ITEMS: never[] = [];'],
  [/NO_ENTRIES/, '/** One shared empty object for absent record fields. */\nconst NO_ENTRIES: Record<string, never> = {};'],
];

/** The generated file of one queried collection (`generated/<collection>.ts`). */
export function shapersFileSource(collection: QueriedCollection): string {
  const def = ENTITIES[collection] as AnyEntityDef;
  const body = shaperSource({ name: collection, columns: def.columns, mirror: def.mirror });
  const uses = USES.filter(([used]) => used.test(body)).map(([, line]) => line);
  return `${HEADER}${uses.join('\n')}\n\n${body}\n`;
}
