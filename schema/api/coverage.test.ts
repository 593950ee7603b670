import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COVERAGE_DOC, generateCoverage, readSpec } from '../../scripts/coverage-doc.ts';
import { CATALOGUE } from './calls.ts';
import { coverageProblems, specCoverage } from './coverage.ts';
import { parseSpecCalls, type SpecCall } from './spec-calls.ts';

const SAMPLE = `# Spec
## 7. The calls it makes
All paths below begin /v1/auth.

### Bill pay
POST /bill-pay (create), mark-bill-as-paid/{bill_uuid}, /pagination. Bulk actions under /bill-pay/bulk-actions/: PATCH due-date; POST cancel. DELETE: bill-pay/{bill}. GET bills, MT103.

### Reimbursements
POST /reimbursements/out_of_pocket, /mileage. DELETE reimbursements/{id}.

## 8. Error catalogue
`;

describe('the spec call list (§7)', () => {
  it('reads each comma-separated item as one call, relative paths under their clause', () => {
    const calls = parseSpecCalls(SAMPLE);
    expect(calls.map((c) => `${c.section} / ${c.label}`)).toEqual([
      'Bill pay / POST /bill-pay (create)', 'Bill pay / POST mark-bill-as-paid/{bill_uuid}', 'Bill pay / POST /pagination',
      'Bill pay / PATCH due-date', 'Bill pay / POST cancel', 'Bill pay / DELETE bill-pay/{bill}',
      'Bill pay / GET bills', 'Bill pay / GET MT103',
      'Reimbursements / POST /reimbursements/out_of_pocket', 'Reimbursements / POST /mileage', 'Reimbursements / DELETE reimbursements/{id}',
    ]);
    const served = specCoverage(calls, CATALOGUE).map((r) => r.served);
    expect(served).toEqual([
      ['bills.create'], ['bills.markPaid'], ['bills.query.pagination'], ['bills.bulk.dueDate'], ['bills.bulk.cancel'], ['bills.delete'],
      ['bills.list', 'bills.get'], ['bills.payments.mt103'], ['reimbursements.createOutOfPocket'], ['reimbursements.createMileage'], ['reimbursements.delete'],
    ]);
  });

  it('refuses a spec without its call list', () => {
    expect(() => parseSpecCalls('# Spec\n## 6. Roles\n')).toThrow(/## 7\./);
  });

  it('fails loudly when the spec file is not there', () => {
    expect(() => readSpec('/nonexistent/product-spec.md')).toThrow(/LEDGERLINE_SPEC/);
  });

  it('names a spec call that is neither served nor planned', () => {
    const stray: SpecCall = { section: 'Bill pay', label: 'POST /bill-pay/teleport', methods: ['POST'], paths: ['/v1/auth/bill-pay/teleport'] };
    const rows = specCoverage([...parseSpecCalls(readSpec()), stray], CATALOGUE);
    expect(coverageProblems(rows, CATALOGUE)).toContain('Bill pay / POST /bill-pay/teleport: neither served nor planned');
  });

  it('names a served or planned entry the spec no longer has', () => {
    const planned = 'GET reconciliation';
    const calls = parseSpecCalls(readSpec()).filter((c) => c.label !== planned && c.label !== 'GET bills');
    const problems = coverageProblems(specCoverage(calls, CATALOGUE), CATALOGUE);
    expect(problems).toContain(`schema/api/planned.ts: "Accounting / ${planned}" is no spec call (§7 changed?)`);
    expect(problems).toContain('schema/api/spec-served.ts: "Bill pay / GET bills" is no spec call (§7 changed?)');
  });

  it('names a linked catalogue entry that does not exist', () => {
    const rows = specCoverage(parseSpecCalls(readSpec()), CATALOGUE.filter((c) => c.id !== 'bills.templates.delete'));
    expect(coverageProblems(rows, CATALOGUE.filter((c) => c.id !== 'bills.templates.delete'))).toContain(
      'Bill pay / DELETE bill-template/{template}: no catalogue entry bills.templates.delete',
    );
  });
});

describe('docs/coverage.md', () => {
  const { doc, problems } = generateCoverage();

  it('maps every spec call: served by the catalogue or planned with its issue', () => {
    expect(problems).toEqual([]);
  });

  it('is current (run npm run coverage:doc)', () => {
    const onDisk = readFileSync(COVERAGE_DOC, 'utf8');
    expect(onDisk === doc, 'docs/coverage.md differs from what the catalogue and the spec give: run npm run coverage:doc').toBe(true);
  });
});
