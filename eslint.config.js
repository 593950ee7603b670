// @ts-check
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

/** Import direction (docs/architecture.md): schema ← sync ← workers ← src; server ← schema. */
const zones = [
  { target: './schema', from: ['./server', './sync', './workers', './src', './tests', './bench'] },
  { target: './sync', from: ['./server', './workers', './src', './tests', './bench'] },
  { target: './workers', from: ['./server', './src', './tests', './bench'] },
  { target: './src', from: ['./server', './sync', './tests', './bench'] },
  { target: './server', from: ['./sync', './workers', './src', './tests', './bench'] },
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
      'import-x/no-restricted-paths': ['error', { zones }],
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
