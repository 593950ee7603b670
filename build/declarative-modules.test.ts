import { readdirSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { DECLARATIVE_DIRS, declarativeModules } from './declarative-modules.ts';

const ROOT = join(import.meta.dirname, '..');

const DECLARATIONS = new Set([
  ts.SyntaxKind.ImportDeclaration,
  ts.SyntaxKind.ImportEqualsDeclaration,
  ts.SyntaxKind.ExportDeclaration,
  ts.SyntaxKind.FunctionDeclaration,
  ts.SyntaxKind.ClassDeclaration,
  ts.SyntaxKind.InterfaceDeclaration,
  ts.SyntaxKind.TypeAliasDeclaration,
  ts.SyntaxKind.EnumDeclaration,
  ts.SyntaxKind.ModuleDeclaration,
  ts.SyntaxKind.VariableStatement,
  ts.SyntaxKind.EmptyStatement,
]);

/**
 * The top-level statements of a module that are not declarations ("line: text"), e.g. a call or
 * an assignment run on import. A side-effect import (`import './x'`) counts too: it exists for
 * its effect. Variable initialisers may call (building a zod schema): that is still declaring.
 */
function declarationOnlyViolations(fileName: string, source: string): string[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const out: string[] = [];
  for (const s of file.statements) {
    const sideEffectImport = ts.isImportDeclaration(s) && s.importClause === undefined;
    if (DECLARATIONS.has(s.kind) && !sideEffectImport) continue;
    const line = file.getLineAndCharacterOfPosition(s.getStart(file)).line + 1;
    out.push(`${line}: ${s.getText(file).split('\n')[0]}`);
  }
  return out;
}

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .map((f) => join(dir, f));
}

describe('declarative modules', () => {
  it.each(DECLARATIVE_DIRS.map((dir) => [dir]))('every module of %s/ only declares', (dir) => {
    const files = sources(dir);
    expect(files.length).toBeGreaterThan(0);
    const violations = files.flatMap((f) => declarationOnlyViolations(f, readFileSync(join(ROOT, f), 'utf8')).map((v) => `${f}:${v}`));
    expect(violations).toEqual([]);
  });

  it.each([
    { name: 'declarations', source: "import { z } from 'zod';\nexport const a = z.object({});\nexport function f() {}\nexport type T = 1;\nexport { b } from './b';", want: [] },
    { name: 'a top-level call', source: "import { z } from 'zod';\nz.config({ jitless: true });", want: ['2: z.config({ jitless: true });'] },
    { name: 'an assignment and a side-effect import', source: "import './setup';\nglobalThis.x = 1;", want: ["1: import './setup';", '2: globalThis.x = 1;'] },
  ])('flags what is not a declaration: $name', ({ source, want }) => {
    expect(declarationOnlyViolations('x.ts', source)).toEqual(want);
  });

  it('marks only modules of the declarative folders side-effect free', () => {
    const of = declarativeModules(ROOT);
    expect(of(join(ROOT, 'schema', 'commands', 'index.ts'))).toBe(false);
    expect(of(join(ROOT, 'sync', 'index.ts'))).toBe(false);
    expect(of(join(ROOT, 'src', 'main.tsx'))).toBeUndefined();
    expect(of(`${ROOT}${sep}node_modules${sep}zod${sep}index.js`)).toBeUndefined();
  });
});
