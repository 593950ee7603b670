/**
 * Issue 26's size targets as a check that cannot drift: every tracked .ts/.tsx/.mjs file over
 * MAX_FILE_LINES lines, and every function, arrow function, method, accessor or constructor
 * (a React component is one of these) over MAX_FUNCTION_LINES lines outside *.test.* files.
 * From the syntax alone (TypeScript's parser, like scripts/dead-exports.ts): a function's lines
 * run from its first token (decorators and comments above it aside) to its closing one; a nested
 * function counts on its own and inside its parent. The files are git's tracked ones (a generated
 * or ignored file is not ours to split). `build/size-limits.test.ts` runs it over the repository
 * and expects none. Usage: `npx tsx scripts/size-limits.ts` (lists them; exit 1 when any).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const MAX_FILE_LINES = 400;
export const MAX_FUNCTION_LINES = 120;

export type SizeOffender =
  | { kind: 'file'; file: string; lines: number }
  | { kind: 'function'; file: string; name: string; line: number; lines: number };

const SOURCE = /\.(ts|tsx|mjs)$/;
const TEST = /\.test\.[^/]*$/;

/** The repository's tracked source files, relative to `root`. */
export function trackedSources(root: string): string[] {
  const out = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return out.split('\0').filter((file) => SOURCE.test(file) && !file.endsWith('.d.ts'));
}

/** A line count as an editor shows it: a trailing newline does not open another line. */
export function lineCount(text: string): number {
  if (text.length === 0) return 0;
  const newlines = text.split('\n').length - 1;
  return text.endsWith('\n') ? newlines : newlines + 1;
}

const isFunctionLike = (node: ts.Node): node is ts.FunctionLikeDeclaration =>
  ts.isFunctionDeclaration(node) || ts.isFunctionExpression(node) || ts.isArrowFunction(node)
  || ts.isMethodDeclaration(node) || ts.isConstructorDeclaration(node)
  || ts.isGetAccessorDeclaration(node) || ts.isSetAccessorDeclaration(node);

/** What a reader would call the function: its own name, else the name it is bound to. */
function nameOf(node: ts.FunctionLikeDeclaration, source: ts.SourceFile): string {
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  if (node.name) return node.name.getText(source);
  const parent = node.parent;
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) && parent.name) {
    return parent.name.getText(source);
  }
  if (ts.isCallExpression(parent)) {
    // `const X = memo(function …)`, `forwardRef((props, ref) => …)`: the binding names it.
    const binding = parent.parent;
    if (ts.isVariableDeclaration(binding)) return binding.name.getText(source);
    return `(argument of ${parent.expression.getText(source).slice(0, 40)})`;
  }
  return '(anonymous)';
}

/** The functions of one source text longer than `max` lines. */
export function longFunctions(file: string, text: string, max = MAX_FUNCTION_LINES): SizeOffender[] {
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : file.endsWith('.mjs') ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const out: SizeOffender[] = [];
  const visit = (node: ts.Node): void => {
    if (isFunctionLike(node) && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = last - first + 1;
      if (lines > max) out.push({ kind: 'function', file, name: nameOf(node, source), line: first + 1, lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/** Every offender of the repository at `root`: long files first, then long functions. */
export function sizeOffenders(root: string): SizeOffender[] {
  const files: SizeOffender[] = [];
  const functions: SizeOffender[] = [];
  for (const file of trackedSources(root)) {
    const text = readFileSync(path.join(root, file), 'utf8');
    const lines = lineCount(text);
    if (lines > MAX_FILE_LINES) files.push({ kind: 'file', file, lines });
    if (!TEST.test(file)) functions.push(...longFunctions(file, text));
  }
  return [...files, ...functions];
}

export function describeOffender(offender: SizeOffender): string {
  return offender.kind === 'file'
    ? `${offender.file}: ${offender.lines} lines (over ${MAX_FILE_LINES})`
    : `${offender.file}:${offender.line} ${offender.name}: ${offender.lines} lines (over ${MAX_FUNCTION_LINES})`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const offenders = sizeOffenders(process.cwd());
  for (const offender of offenders) console.log(describeOffender(offender));
  console.log(offenders.length === 0 ? 'no file or function over its size limit' : `${offenders.length} over their size limit`);
  process.exitCode = offenders.length === 0 ? 0 : 1;
}
