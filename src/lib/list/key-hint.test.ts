import { describe, expect, it } from 'vitest';
import { listKeyHint } from './key-hint.ts';

describe('listKeyHint', () => {
  it('leaves out select and code for a list that neither selects nor codes', () => {
    const hint = listKeyHint({});
    expect(hint).toContain('move');
    expect(hint).toContain('open');
    expect(hint).toContain('search');
    expect(hint).not.toContain('select');
    expect(hint).not.toContain('code');
  });

  it('names selection and the page scope’s own keys when asked', () => {
    const hint = listKeyHint({ select: true, scopes: ['cards'] });
    expect(hint).toContain('x select');
    expect(hint).toContain('lock');
    expect(hint).toContain('unlock');
    expect(hint).not.toContain('code');
  });

  it('leaves out Enter when a row opens nothing', () => {
    expect(listKeyHint({ open: false })).not.toContain('open');
  });

  it('leaves out / when the list has no search box', () => {
    expect(listKeyHint({})).toContain('/ search');
    expect(listKeyHint({ search: false })).not.toContain('search');
  });

  it('keeps coding for the transactions grid', () => {
    expect(listKeyHint({ select: true, code: true })).toContain('c code');
  });
});
