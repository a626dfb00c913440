// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { builtinModules } from 'node:module';

/** Workflows are deterministic: no Node built-ins, no I/O libraries (design §9). */
const workflowBans = [
  ...builtinModules,
  ...builtinModules.map((m) => `node:${m}`),
  'postgres',
  'drizzle-orm',
  'drizzle-orm/*',
  'pino',
  'mqtt',
  'node-forge',
  'hono',
  '@temporalio/client',
  '@temporalio/worker',
  '@temporalio/activity',
];

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', '.tools/**', '.lab/**', '.test-run/**', '.scratch-*/**', 'db/migrations/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
      'no-empty': ['error', { allowEmptyCatch: true }],
    },
  },
  {
    files: ['workflows/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: workflowBans.filter((m) => !m.includes('*')).map((name) => ({ name, message: 'workflows are deterministic: no Node built-ins or I/O' })),
          patterns: [{ group: ['drizzle-orm/*', '../db/*', '../apps/*'], message: 'workflows are deterministic: no I/O' }],
        },
      ],
    },
  },
  {
    // Tests read loosely typed JSON answers.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['eslint.config.js'],
    ...tseslint.configs.disableTypeChecked,
  },
);
