import { describe, expect, it } from 'vitest';
import { COMMAND_NAMES } from '../../schema/commands/index.ts';
import { COMMAND_WORDS, commandWords } from './command-words.ts';

describe('command words', () => {
  it('has words for every command of the registry', () => {
    for (const name of COMMAND_NAMES) expect(COMMAND_WORDS[name], name).toMatch(/\S/);
  });

  it('reads a stored name from a newer build as itself', () => {
    expect(commandWords('approval.approve')).toBe('Approval of');
    expect(commandWords('card.lock')).toBe('Locking of');
    expect(commandWords('wallet.transfer')).toBe('wallet.transfer');
  });
});
