import { describe, expect, it } from 'vitest';
import { MIRRORED_COLLECTIONS } from '../collections.ts';
import { CONFIRM_MODES } from './define-command.ts';
import { COMMAND_NAMES, COMMANDS, commandDef, type CommandInput, type CommandName } from './index.ts';

describe('the command registry', () => {
  it('lists every command under its own name, with a mirrored collection and a confirm mode', () => {
    expect(COMMAND_NAMES.length).toBeGreaterThan(0);
    for (const name of COMMAND_NAMES) {
      const def = COMMANDS[name];
      expect(def.name).toBe(name);
      expect(commandDef(name)).toBe(def);
      expect(MIRRORED_COLLECTIONS).toContain(def.collection);
      expect(CONFIRM_MODES).toContain(def.confirm);
    }
    expect(Object.keys(COMMANDS).sort()).toEqual([...COMMAND_NAMES].sort());
  });

  it('refuses a name no command has, at run time and at compile time', () => {
    expect(() => commandDef('transaction.nope')).toThrow(/unknown command/);
    // @ts-expect-error: CommandName is derived from COMMANDS; an unknown name does not compile.
    const unknown: CommandName = 'transaction.nope';
    // @ts-expect-error: nor does the input of an unknown command.
    const input: CommandInput<'transaction.nope'> = {};
    expect([unknown, input]).toHaveLength(2);
  });

  it('splits a coding selection once: distinct ids, at most 10,000 per call, a lone id as transaction.code', () => {
    const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
    const ids = Array.from({ length: 20_001 }, (_, i) => id(i));
    const split = COMMANDS['transaction.bulkCode'].split!;
    const parts = split.parts(split.input.parse({ transaction_ids: [...ids, id(0)], patch: { memo: 'x' } }));
    expect(parts.map((p) => [p.def.name, p.def.entityIds(p.args).length])).toEqual([
      ['transaction.bulkCode', 10_000],
      ['transaction.bulkCode', 10_000],
      ['transaction.code', 1],
    ]);
    // Each part's args are already what its command's schema would produce.
    for (const p of parts) expect(p.def.args.parse(p.args)).toEqual(p.args);
  });
});
