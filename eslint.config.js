// @ts-check
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { readdirSync } from 'node:fs';

/** Import direction (docs/architecture.md): schema ← sync ← workers ← src; server ← schema. */
const zones = [
  { target: './schema', from: ['./server', './sync', './workers', './src', './tests', './bench'] },
  { target: './sync', from: ['./server', './workers', './src', './tests', './bench'] },
  { target: './workers', from: ['./server', './src', './tests', './bench'] },
  { target: './src', from: ['./server', './sync', './tests', './bench'] },
  { target: './server', from: ['./sync', './workers', './src', './tests', './bench'] },
];

/**
 * Inside src/ (bulletproof-react's direction): app → features → components/lib → data-access.
 * A feature never imports another (what two share moves down to components/ or lib/), and the
 * shared layers import no feature and nothing of the shell. A new feature folder gets its zone
 * without editing this file.
 */
const features = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);
const srcZones = [
  ...features.map((name) => ({
    target: `./src/features/${name}`,
    from: './src/features',
    except: [`./${name}`],
    message: 'A feature does not import another feature: move what they share to src/components or src/lib.',
  })),
  { target: './src/features', from: './src/app', message: 'Features do not import the shell (src/app).' },
  {
    target: ['./src/lib', './src/components', './src/data-access'],
    from: ['./src/app', './src/features'],
    message: 'The shared layers import neither the shell (src/app) nor a feature.',
  },
  {
    target: ['./src/app', './src/features', './src/lib', './src/components', './src/data-access'],
    from: ['./src/router.tsx', './src/main.tsx'],
    message: 'Only main.tsx and router.tsx assemble the app.',
  },
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'coverage/**', '.tmp/**', 'dev-dist/**', '.prof/**'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    plugins: { 'import-x': importX },
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    settings: {
      'import-x/resolver': { typescript: true, node: true },
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': ['error', { zones: [...zones, ...srcZones] }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'react', message: 'Only src/ imports React.' }, { name: 'react-dom', message: 'Only src/ imports React.' }] },
      ],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'no-restricted-imports': 'off', ...reactHooks.configs.recommended.rules },
  },
  {
    // Issue 26's size limits, held: no source file over 400 lines, no function or component over
    // 120 (blank lines and comments not counted). Tests and the generated row shapers are exempt.
    files: ['{src,workers,server,schema,sync,bench,scripts}/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}', 'workers/collections/generated/**'],
    rules: {
      'max-lines': ['error', { max: 400, skipBlankLines: false, skipComments: false }],
      'max-lines-per-function': ['error', { max: 120, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    files: ['schema/**/*.ts'],
    ignores: ['schema/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!zod$|zod/|immer$|\\.)',
              message: 'schema/ imports nothing but zod and immer.',
            },
          ],
        },
      ],
    },
  },
);
