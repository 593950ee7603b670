import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeOffender, lineCount, longFunctions, sizeOffenders } from '../scripts/size-limits.ts';

const ROOT = join(import.meta.dirname, '..');

/** A function of `bodyLines` statements, written as `head { … }` (head and closing line count too). */
const fn = (head: string, bodyLines: number, tail = '}') => `${head} {\n${'  work();\n'.repeat(bodyLines)}${tail}\n`;

describe('size limits (issue 26)', () => {
  it('the repository has no file over 400 lines and no function over 120 outside tests', () => {
    const offenders = sizeOffenders(ROOT).map(describeOffender);
    expect(offenders, `over their size limit:\n${offenders.join('\n')}`).toEqual([]);
  });

  it('counts lines as an editor does', () => {
    expect(lineCount('')).toBe(0);
    expect(lineCount('a')).toBe(1);
    expect(lineCount('a\n')).toBe(1);
    expect(lineCount('a\nb')).toBe(2);
    expect(lineCount('a\n\nb\n')).toBe(3);
  });

  it.each([
    ['a function declaration', fn('function big()', 119), 'big'],
    ['an arrow bound to a const', fn('const Arrow = () =>', 119, '};'), 'Arrow'],
    ['a method', `class K {\n${fn('  method()', 119, '  }')}}\n`, 'method'],
    ['an object literal method', `const o = {\n${fn('  prop: function ()', 119, '  },')}};\n`, 'prop'],
    ['a wrapped component', fn('const Memo = memo(function ()', 119, '});'), 'Memo'],
  ])('finds %s over 120 lines, by name and first line', (_, text, name) => {
    const [offender, ...rest] = longFunctions('x.tsx', `// header\n${text}`);
    expect(rest).toEqual([]);
    expect(offender).toEqual({ kind: 'function', file: 'x.tsx', name, line: text.startsWith('class') || text.startsWith('const o') ? 3 : 2, lines: 121 });
  });

  it('leaves a function of exactly 120 lines alone', () => {
    expect(longFunctions('x.ts', fn('function fits()', 118))).toEqual([]);
  });

  it('counts a nested function on its own as well as inside its parent', () => {
    const inner = fn('  const inner = () =>', 120, '  };');
    const names = longFunctions('x.ts', `function outer() {\n${inner}}\n`).map((o) => o.kind === 'function' && o.name);
    expect(names).toEqual(['outer', 'inner']);
  });
});
