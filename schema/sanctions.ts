/**
 * Sanctions screening of names (issue 31): the financing application's decision engine, the firm
 * application and the re-screening of a business's owners (KYB/KYC) check every person and
 * company name against a list. The list is a small local one of **invented** entries: no real
 * sanctions data ships with the product, and none can be fetched from here. A hit never rejects
 * by itself: it sends the application to MANUAL_REVIEW (§4) for a person to clear.
 */
export type SanctionsEntry = { id: string; kind: 'PERSON' | 'ENTITY'; name: string; aliases: readonly string[] };

export const SANCTIONS_LIST: readonly SanctionsEntry[] = [
  { id: 'LL-0001', kind: 'PERSON', name: 'Boris Q. Sanctionedov', aliases: ['Boris Sanctionedov', 'B. Q. Sanctionedov'] },
  { id: 'LL-0002', kind: 'PERSON', name: 'Marta Ilse Verbotene', aliases: ['Marta Verbotene'] },
  { id: 'LL-0003', kind: 'PERSON', name: 'Quentin Blocklisted', aliases: ['Q. Blocklisted'] },
  { id: 'LL-0004', kind: 'PERSON', name: 'Yevgenia Embargova', aliases: ['Eugenia Embargova'] },
  { id: 'LL-0005', kind: 'PERSON', name: 'Dario Frozenasset', aliases: [] },
  { id: 'LL-0006', kind: 'PERSON', name: 'Ingrid Restrictsson', aliases: ['Inga Restrictsson'] },
  { id: 'LL-0007', kind: 'PERSON', name: 'Hamid Noentry Aldenied', aliases: ['Hamid Aldenied'] },
  { id: 'LL-0008', kind: 'PERSON', name: 'Olaf Watchlistsen', aliases: [] },
  { id: 'LL-0009', kind: 'PERSON', name: 'Celestine Prohibida', aliases: ['Celeste Prohibida'] },
  { id: 'LL-0010', kind: 'PERSON', name: 'Rurik Designatov', aliases: ['Rurik Designatoff'] },
  { id: 'LL-0011', kind: 'PERSON', name: 'Anaïs Geblokkeerd', aliases: [] },
  { id: 'LL-0012', kind: 'PERSON', name: 'Tomasz Zakazany', aliases: ['Tomas Zakazany'] },
  { id: 'LL-0013', kind: 'ENTITY', name: 'Blackwater Shell Trading LLC', aliases: ['Blackwater Shell Trading'] },
  { id: 'LL-0014', kind: 'ENTITY', name: 'Northwind Embargo Holdings Ltd', aliases: ['Northwind Embargo Holdings'] },
  { id: 'LL-0015', kind: 'ENTITY', name: 'Crimson Veil Shipping Corp', aliases: ['Crimson Veil Shipping'] },
  { id: 'LL-0016', kind: 'ENTITY', name: 'Obsidian Frontier Exports Inc', aliases: ['Obsidian Frontier Exports'] },
  { id: 'LL-0017', kind: 'ENTITY', name: 'Grey Lantern Finance SA', aliases: ['Grey Lantern Finance'] },
  { id: 'LL-0018', kind: 'ENTITY', name: 'Sable Harbor Logistics GmbH', aliases: ['Sable Harbor Logistics'] },
  { id: 'LL-0019', kind: 'ENTITY', name: 'Iron Curtain Metals Co', aliases: ['Iron Curtain Metals'] },
  { id: 'LL-0020', kind: 'ENTITY', name: 'Phantom Meridian Bank', aliases: ['Meridian Phantom Bank'] },
  { id: 'LL-0021', kind: 'ENTITY', name: 'Cobalt Mirage Petroleum', aliases: [] },
  { id: 'LL-0022', kind: 'ENTITY', name: 'Vanta Ridge Arms Trading', aliases: ['Vanta Ridge Arms'] },
  { id: 'LL-0023', kind: 'PERSON', name: 'Ludovic Sanctionné', aliases: ['Ludovic Sanctionne'] },
  { id: 'LL-0024', kind: 'PERSON', name: 'Kwame Restrictedson', aliases: [] },
  { id: 'LL-0025', kind: 'PERSON', name: 'Xiomara Vetoed-Ruiz', aliases: ['Xiomara Vetoed Ruiz'] },
];

/** Company-form words that do not distinguish one name from another. */
const COMPANY_SUFFIXES = new Set(['llc', 'inc', 'ltd', 'corp', 'co', 'sa', 'gmbh', 'plc', 'lp', 'llp', 'incorporated', 'limited', 'corporation', 'company']);

/**
 * A name as a sorted set of tokens: accents stripped (NFKD, marks removed), lower case,
 * punctuation and company suffixes dropped, single initials dropped ("Boris Q. Sanctionedov" and
 * "Sanctionedov, Boris" are the same person to a screener).
 */
export function nameTokens(name: string): string[] {
  const plain = name.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ');
  const tokens = plain.split(' ').filter((t) => t.length > 1 && !COMPANY_SUFFIXES.has(t));
  return [...new Set(tokens)].sort();
}

export type SanctionsHit = { name: string; entry: SanctionsEntry; matched: string };

/**
 * The names that match an entry: the same token set as its name or an alias, or every token of a
 * name or alias of at least two tokens present in the screened name (a middle name or a longer
 * company name does not hide a listed one). Same input, same output: the list is an argument.
 */
export function screenNames(names: readonly string[], list: readonly SanctionsEntry[] = SANCTIONS_LIST): SanctionsHit[] {
  const hits: SanctionsHit[] = [];
  for (const name of names) {
    const tokens = new Set(nameTokens(name));
    if (tokens.size === 0) continue;
    for (const entry of list) {
      const matched = [entry.name, ...entry.aliases].find((listed) => {
        const want = nameTokens(listed);
        if (want.length === 0) return false;
        const same = want.length === tokens.size && want.every((t) => tokens.has(t));
        return same || (want.length >= 2 && want.every((t) => tokens.has(t)));
      });
      if (matched) hits.push({ name, entry, matched });
    }
  }
  return hits;
}
