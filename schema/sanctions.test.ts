import { describe, expect, it } from 'vitest';
import { nameTokens, screenNames, type SanctionsEntry } from './sanctions.ts';

const list: SanctionsEntry[] = [
  { id: 'P', kind: 'PERSON', name: 'Boris Q. Sanctionedov', aliases: ['B. Sanctionedov-Ivanov'] },
  { id: 'E', kind: 'ENTITY', name: 'Crimson Veil Shipping Corp', aliases: [] },
  { id: 'S', kind: 'PERSON', name: 'Madonna', aliases: [] },
];

describe('sanctions screening', () => {
  it('normalises accents, case, punctuation, initials and company suffixes', () => {
    expect(nameTokens('  Anaïs   GEBLOKKEERD, ')).toEqual(['anais', 'geblokkeerd']);
    expect(nameTokens('Crimson Veil Shipping Corp.')).toEqual(['crimson', 'shipping', 'veil']);
    expect(nameTokens('Boris Q. Sanctionedov')).toEqual(['boris', 'sanctionedov']);
  });
  it('matches reordered names, added middle names and longer company names', () => {
    expect(screenNames(['Sanctionedov, Boris'], list).map((h) => h.entry.id)).toEqual(['P']);
    expect(screenNames(['Boris Alexei Sanctionedov'], list).map((h) => h.entry.id)).toEqual(['P']);
    expect(screenNames(['The Crimson Veil Shipping Company International'], list).map((h) => h.entry.id)).toEqual(['E']);
    expect(screenNames(['Sanctionedov Ivanov'], list).map((h) => h.entry.id)).toEqual(['P']);
  });
  it('does not match a part of a listed name, and a one-word entry only exactly', () => {
    expect(screenNames(['Boris Johnson', 'Crimson Veil', 'Jane Doe'], list)).toEqual([]);
    expect(screenNames(['Madonna Smith'], list)).toEqual([]);
    expect(screenNames(['MADONNA'], list).map((h) => h.entry.id)).toEqual(['S']);
  });
  it('the shipped list flags the demo name and nobody ordinary', () => {
    expect(screenNames(['Boris Q. Sanctionedov']).length).toBe(1);
    expect(screenNames(['Avery Chen', 'Northwind Traders', 'Acme Corp'])).toEqual([]);
  });
});
