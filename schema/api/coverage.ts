import type { CallDef } from './define-call.ts';
import {
  PLANNED_CALLS, PLANNED_ERRORS, PLANNED_ISSUES, PLANNED_ROLE_RULES, PLANNED_SCOPES, PLANNED_SECTIONS,
  type PlannedIssue, type PlannedUse,
} from './planned.ts';
import { SPEC_SERVED } from './spec-served.ts';
import { pathShape, type SpecCall } from './spec-calls.ts';

/**
 * The coverage matrix: each §7 spec call served (by catalogue entries: its path matched, or named
 * in SPEC_SERVED) and/or planned (PLANNED_CALLS, or its section in PLANNED_SECTIONS), rendered as
 * docs/coverage.md. Pure: the script and the test read the spec and pass its calls in.
 */
export interface CoverageRow {
  call: SpecCall;
  served: string[];
  planned: PlannedIssue | null;
}

type Catalogue = readonly Pick<CallDef, 'id' | 'method' | 'path'>[];

function matchedByPath(call: SpecCall, catalogue: Catalogue): string[] {
  for (const shape of call.paths) {
    const hits = catalogue.filter(
      (e) => pathShape(e.path) === shape && (call.methods.length === 0 || (call.methods as string[]).includes(e.method)),
    );
    if (hits.length > 0) return hits.map((e) => e.id);
  }
  return [];
}

export function specCoverage(calls: readonly SpecCall[], catalogue: Catalogue): CoverageRow[] {
  return calls.map((call) => {
    const linked = SPEC_SERVED[call.section]?.[call.label];
    const served = linked ? [...linked] : matchedByPath(call, catalogue);
    const planned = PLANNED_CALLS[call.section]?.[call.label] ?? (served.length ? null : PLANNED_SECTIONS[call.section]) ?? null;
    return { call, served, planned };
  });
}

/** Everything that makes the matrix wrong: unmapped spec calls, stale or unknown data entries. */
export function coverageProblems(rows: readonly CoverageRow[], catalogue: Catalogue): string[] {
  const problems: string[] = [];
  const ids = new Set(catalogue.map((e) => e.id));
  const labels = new Set(rows.map((r) => `${r.call.section} / ${r.call.label}`));
  const sections = new Set(rows.map((r) => r.call.section));
  for (const r of rows) {
    const name = `${r.call.section} / ${r.call.label}`;
    if (r.served.length === 0 && r.planned === null) problems.push(`${name}: neither served nor planned`);
    if (SPEC_SERVED[r.call.section]?.[r.call.label] && matchedByPath(r.call, catalogue).length > 0) {
      problems.push(`${name}: its path matches the catalogue, so schema/api/spec-served.ts need not name it`);
    }
    const plannedCall = PLANNED_CALLS[r.call.section]?.[r.call.label];
    if (plannedCall && !SPEC_SERVED[r.call.section]?.[r.call.label] && r.served.length > 0) {
      problems.push(`${name}: served (${r.served.join(', ')}), so schema/api/planned.ts must not plan it`);
    }
    for (const id of r.served) if (!ids.has(id)) problems.push(`${name}: no catalogue entry ${id}`);
  }
  for (const [what, data] of [['spec-served.ts', SPEC_SERVED], ['planned.ts', PLANNED_CALLS]] as const) {
    for (const [section, entries] of Object.entries(data)) {
      for (const label of Object.keys(entries)) {
        if (!labels.has(`${section} / ${label}`)) problems.push(`schema/api/${what}: "${section} / ${label}" is no spec call (§7 changed?)`);
      }
    }
  }
  for (const section of Object.keys(PLANNED_SECTIONS)) {
    if (!sections.has(section)) problems.push(`schema/api/planned.ts: section "${section}" is not in §7`);
  }
  return problems;
}

const cell = (text: string) => text.replace(/\|/g, '\\|');
/** `unfiled` reads "not scheduled", `not applicable` as itself; an issue number as `#n`. */
const issueRef = (issue: PlannedIssue) => (/^\d+$/.test(String(issue)) ? `#${issue}` : issue === 'unfiled' ? 'not scheduled' : issue);

function statusOf(r: CoverageRow): string {
  const later = (p: PlannedIssue) => (issueRef(p).startsWith('#') ? `planned ${issueRef(p)}` : issueRef(p));
  if (r.served.length && r.planned) return `served in part; rest ${later(r.planned)}`;
  return r.served.length ? 'served' : later(r.planned!);
}

function summary(rows: readonly CoverageRow[]): string[] {
  const sections = [...new Set(rows.map((r) => r.call.section))];
  const line = (name: string, of: readonly CoverageRow[]) => {
    const served = of.filter((r) => r.served.length > 0).length;
    return `| ${name} | ${of.length} | ${served} | ${of.length - served} |`;
  };
  const byIssue = (Object.keys(PLANNED_ISSUES) as PlannedIssue[]).map((issue) => {
    const n = rows.filter((r) => r.planned === issue).length;
    return `| ${issueRef(issue)} | ${PLANNED_ISSUES[issue]} | ${n} |`;
  });
  return [
    '| Section | Spec calls | Served (in whole or part) | Planned only |', '|---|---:|---:|---:|',
    ...sections.map((s) => line(s, rows.filter((r) => r.call.section === s))),
    line('**Total**', rows), '',
    '| Planned | What | Spec calls (whole or rest) |', '|---|---|---:|', ...byIssue,
  ];
}

function useTable(title: string, data: Readonly<Record<string, PlannedUse>>): string[] {
  return [
    `### ${title}`, '', '| Name | Issue | Where it applies |', '|---|---|---|',
    ...Object.entries(data).map(([name, u]) => `| \`${name}\` | ${issueRef(u.issue)} | ${cell(u.why)} |`), '',
  ];
}

/** docs/coverage.md. */
export function renderCoverage(rows: readonly CoverageRow[], catalogue: Catalogue): string {
  const servedIds = new Set(rows.flatMap((r) => r.served));
  const beyond = catalogue.filter((e) => !servedIds.has(e.id));
  const out: string[] = [
    '# Coverage: the spec\'s calls against the call catalogue', '',
    '<!-- Generated by `npm run coverage:doc` (scripts/coverage-doc.ts). Do not edit: schema/api/coverage.test.ts fails when this file differs. -->', '',
    'Each call of the spec\'s §7 (as its text words it) is **served** by the catalogue entries named',
    '(schema/api/calls*.ts; matched by path, or linked in schema/api/spec-served.ts) or **planned**: with the issue that will build it, or',
    '**not scheduled** (wants an issue of its own; none is filed yet: docs/design/unscheduled.md)',
    '(schema/api/planned.ts). Counts by section:', '',
    ...summary(rows), '',
  ];
  for (const section of [...new Set(rows.map((r) => r.call.section))]) {
    const of = rows.filter((r) => r.call.section === section);
    const served = of.filter((r) => r.served.length > 0).length;
    out.push(`## ${section}`, '', `${of.length} spec calls: ${served} served, ${of.length - served} planned.`, '');
    out.push('| Spec call | Status | Catalogue entries |', '|---|---|---|');
    for (const r of of) out.push(`| ${cell(r.call.label)} | ${statusOf(r)} | ${r.served.map((id) => `\`${id}\``).join(', ')} |`);
    out.push('');
  }
  out.push(
    '## Catalogue calls beyond §7\'s list', '',
    `${beyond.length} catalogue entries serve no §7 call by name (the product's own calls, or parts of a spec item served under another path):`, '',
    '| Catalogue entry | Call |', '|---|---|',
    ...beyond.map((e) => `| \`${e.id}\` | ${e.method} ${e.path} |`), '',
    '## Declared in schema/, used later', '',
    'Nothing in server/, src/, workers/, sync/ or schema/\'s rule modules uses these yet (schema/api/declared-usage.test.ts checks it); each is listed with the issue that will, as not scheduled (no issue yet), or as not applicable with the reason.', '',
    ...useTable('Role rule helpers (schema/roles.ts)', PLANNED_ROLE_RULES),
    ...useTable('Token scopes (schema/api/scopes.ts): not yet both minted and gating a call', PLANNED_SCOPES),
    ...useTable('Error codes (schema/errors.ts): not yet raised', PLANNED_ERRORS),
  );
  return `${out.join('\n').trimEnd()}\n`;
}
