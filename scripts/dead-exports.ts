/**
 * Lists exported names that no other file imports (issue 26), from the syntax alone (TypeScript's
 * parser, no type checker, so it runs in seconds): every import, re-export and `import()` of every
 * .ts/.tsx file of the repository (node_modules aside) is resolved by its relative path, and an
 * export counts as used when another file names it (a namespace import or `export *` uses them
 * all). An export used only by tests is listed as `test-only`: keep it when the test exercises it
 * directly. Usage: `npx tsx scripts/dead-exports.ts [folder ...]` (default: schema server sync workers).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const root = process.cwd();
const folders = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['schema', 'server', 'sync', 'workers'];
const SKIP = new Set(['node_modules', '.git', 'dist', 'coverage', 'test-results', 'playwright-report']);

function walk(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full, out);
    else if (/\.(m?ts|tsx)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

const isTest = (file: string) => /\.(test|spec)\.tsx?$|\/test-[^/]*\.ts$|\/testing\.ts$|\/[^/]*test-kit\.ts$/.test(file) || path.relative(root, file).startsWith('tests/');
const files = walk(root);
const exportsOf = new Map<string, Set<string>>();
/** file → name → files importing it; '*' = every name. */
const usedBy = new Map<string, Map<string, Set<string>>>();

const use = (target: string, name: string, from: string) => {
  const names = usedBy.get(target) ?? new Map<string, Set<string>>();
  const set = names.get(name) ?? new Set<string>();
  set.add(from);
  names.set(name, set);
  usedBy.set(target, names);
};
const resolveSpecifier = (from: string, spec: string): string | null => {
  if (!spec.startsWith('.')) return null;
  const base = path.resolve(path.dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')]) if (existsSync(candidate) && candidate.match(/\.(m?ts|tsx)$/)) return candidate;
  return null;
};
const hasExport = (node: ts.Node) => ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);

for (const file of files) {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const exported = new Set<string>();
  exportsOf.set(file, exported);
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const target = resolveSpecifier(file, node.moduleSpecifier.text);
      const clause = node.importClause;
      if (target && clause) {
        if (clause.name) use(target, 'default', file);
        const bindings = clause.namedBindings;
        if (bindings && ts.isNamespaceImport(bindings)) use(target, '*', file);
        if (bindings && ts.isNamedImports(bindings)) for (const el of bindings.elements) use(target, (el.propertyName ?? el.name).text, file);
      }
    } else if (ts.isExportDeclaration(node)) {
      const target = node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier) ? resolveSpecifier(file, node.moduleSpecifier.text) : null;
      if (node.exportClause && ts.isNamedExports(node.exportClause)) {
        for (const el of node.exportClause.elements) {
          if (target) use(target, (el.propertyName ?? el.name).text, file);
          else exported.add(el.name.text);
        }
      } else if (target) use(target, '*', file);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const arg = node.arguments[0];
      const target = arg && ts.isStringLiteral(arg) ? resolveSpecifier(file, arg.text) : null;
      if (target) use(target, '*', file);
    } else if (hasExport(node)) {
      if (ts.isVariableStatement(node)) {
        for (const d of node.declarationList.declarations) if (ts.isIdentifier(d.name)) exported.add(d.name.text);
      } else if ((ts.isFunctionDeclaration(node) || ts.isClassDeclaration(node) || ts.isInterfaceDeclaration(node)
        || ts.isTypeAliasDeclaration(node) || ts.isEnumDeclaration(node)) && node.name) {
        const isDefault = (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.DefaultKeyword);
        exported.add(isDefault ? 'default' : node.name.text);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}

for (const [file, names] of exportsOf) {
  const rel = path.relative(root, file);
  if (!folders.some((f) => rel.startsWith(`${f}/`)) || /\.(test|spec)\.tsx?$/.test(rel)) continue;
  const users = usedBy.get(file);
  if (users?.has('*')) continue;
  for (const name of names) {
    const by = [...(users?.get(name) ?? [])];
    if (by.length === 0) console.log(`${rel}\t${name}\tunused`);
    else if (!isTest(file) && by.every(isTest)) console.log(`${rel}\t${name}\ttest-only`);
  }
}
