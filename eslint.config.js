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
  'hono',
  '@temporalio/client',
  '@temporalio/worker',
  '@temporalio/activity',
];

/**
 * The layers (docs/architecture.md): an import may only point down. `core` (the shared vocabulary)
 * imports no other folder; `db` imports only `core`; `contracts` (the API↔worker contract) only
 * `core`; `backends` (each product's client and adapter) only `core`, and nothing of Temporal;
 * `activities` and `workflows` import `contracts` and `db`/`core` (workflows only `core`), never
 * `apps`, and `activities` imports `backends`; `temporal` imports `core` and `contracts`. Only types cross from `activities` to
 * `workflows` (the activity types the workflows proxy); nothing crosses back: what both sides share
 * is in `contracts` or `core`. The API (`apps/api`) reaches activities only through the worker:
 * it imports none (its certificate issuer is a port in `core`, bound in `apps/config`).
 */
const LAYERS = ['core', 'db', 'contracts', 'backends', 'activities', 'workflows', 'temporal', 'apps'];
/** Relative specifiers that reach folder `layer` from a file one to four folders deep. */
const reach = (layer) => [1, 2, 3, 4].map((depth) => `${'../'.repeat(depth)}${layer}/**`);
/**
 * The lab (`apps/lab`: servers, simulators, their ports) is test infrastructure: no process the
 * service ships imports it (the worker once took its port helper, and with it a pick-then-bind).
 */
const labBan = {
  group: [1, 2, 3].map((depth) => `${'../'.repeat(depth)}lab/**`),
  message: 'layers: the lab is test infrastructure; no module of the service imports apps/lab/ (docs/architecture.md)',
};
/**
 * A product's folder (`backends/<product>/`) imports its own files, the shared client
 * (`backends/http/`), the one reconciler of its objects (`backends/reconcile/`) and `core/`; never another product's, and nothing of Temporal: a backend is a
 * client of its product, whoever runs it.
 */
const backendBans = [
  {
    group: ['../*/**', '!../http/**', '!../reconcile/**', '!../../**'],
    message: "layers: a backend imports only its own folder, backends/http/, backends/reconcile/ and core/, never another product's (docs/architecture.md)",
  },
  { group: ['@temporalio/*'], message: 'layers: a backend knows nothing of Temporal; the steps in activities/ do (docs/architecture.md)' },
];
/**
 * An area of `activities/` (`activities/<area>/`) imports of another area only its public face,
 * its `index.ts`: what two areas share otherwise is a product's client (`backends/`), vocabulary
 * (`core/`) or a shared activity module (`activities/*.ts`).
 */
const areaInternals = {
  group: ['../*/*', '!../*/index.js', '!../../**'],
  message: 'layers: an area imports of another area only its index.ts; share through backends/, core/ or activities/*.ts (docs/architecture.md)',
};
const layerRule = (banned, typesOnly = [], extra = []) => [
  'error',
  {
    patterns: [
      ...extra,
      ...banned.map((layer) => ({ group: reach(layer), message: `layers: this folder may not import ${layer}/ (docs/architecture.md)` })),
      ...typesOnly.map((layer) => ({
        group: reach(layer),
        allowTypeImports: true,
        message: `layers: only types may be imported from ${layer}/ (docs/architecture.md)`,
      })),
    ],
  },
];
const below = (layer, ...allowed) => LAYERS.filter((l) => l !== layer && !allowed.includes(l));

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
  { files: ['core/**/*.ts'], rules: { '@typescript-eslint/no-restricted-imports': layerRule(below('core')) } },
  { files: ['db/**/*.ts'], rules: { '@typescript-eslint/no-restricted-imports': layerRule(below('db', 'core')) } },
  { files: ['contracts/**/*.ts'], rules: { '@typescript-eslint/no-restricted-imports': layerRule(below('contracts', 'core')) } },
  { files: ['backends/**/*.ts'], rules: { '@typescript-eslint/no-restricted-imports': layerRule(below('backends', 'core'), [], backendBans) } },
  { files: ['activities/*.ts'], rules: { '@typescript-eslint/no-restricted-imports': layerRule(['apps', 'temporal', 'workflows']) } },
  { files: ['activities/*/**/*.ts'], rules: { '@typescript-eslint/no-restricted-imports': layerRule(['apps', 'temporal', 'workflows'], [], [areaInternals]) } },
  { files: ['temporal/**/*.ts'], rules: { '@typescript-eslint/no-restricted-imports': layerRule(['apps', 'activities', 'backends', 'db', 'workflows']) } },
  { files: ['workflows/**/*.ts'], rules: { '@typescript-eslint/no-restricted-imports': layerRule(['apps', 'backends', 'db', 'temporal'], ['activities']) } },
  {
    // The contract is bundled with the workflows into the sandbox: the same determinism.
    files: ['workflows/**/*.ts', 'contracts/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: workflowBans.filter((m) => !m.includes('*')).map((name) => ({ name, message: 'workflows are deterministic: no Node built-ins or I/O' })),
          patterns: [{ group: ['drizzle-orm/*'], message: 'workflows are deterministic: no I/O' }],
        },
      ],
    },
  },
  { files: ['apps/{worker,config,telemetry}/**/*.ts'], rules: { '@typescript-eslint/no-restricted-imports': layerRule([], [], [labBan]) } },
  { files: ['apps/api/**/*.ts'], rules: { '@typescript-eslint/no-restricted-imports': layerRule(['activities', 'backends'], [], [labBan]) } },
  {
    // Issue 30: a function a reader can hold in mind. The adapters' and activities' factories only
    // wire a context to named module functions (backends/powerdns/powerdns.ts is the pattern).
    files: ['activities/**/*.ts', 'backends/**/*.ts', 'apps/api/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 60, skipBlankLines: true, skipComments: true }] },
  },
  {
    // Tests read loosely typed JSON answers. A unit test beside its module may reach across the
    // layers (a table checks a derivation against the simulator or the API schema that uses it):
    // the layers order what ships, and tests do not ship (tsconfig.build.json excludes them).
    files: ['test/**/*.ts', '**/*.test.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-restricted-imports': 'off', 'no-restricted-imports': 'off' },
  },
  {
    files: ['eslint.config.js'],
    ...tseslint.configs.disableTypeChecked,
  },
);
