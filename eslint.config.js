// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * Layer boundaries of docs/architecture.md ("Layers (imports only point down"),
 * enforced with no-restricted-imports. Patterns are matched against the import string.
 */
const BROWSER_AND_SDK_RUNTIME = [
  { group: ['idb', 'idb/*'], message: 'Layers 1-2 are pure: no IndexedDB (DESIGN.md, Layers).' },
  { group: ['wxt', 'wxt/*', '#imports'], message: 'Layers 1-2 are pure: no WXT / browser APIs (DESIGN.md, Layers).' },
  { group: ['webextension-polyfill'], message: 'Layers 1-2 are pure: no browser APIs (DESIGN.md, Layers).' },
  {
    group: ['openai', 'openai/*', '@anthropic-ai/sdk', '@anthropic-ai/sdk/*', '@google/genai', '@google/genai/*'],
    allowTypeImports: true,
    message: 'Layers 1-2 may import SDK *types* only (`import type`).',
  },
];
const UI = [{ group: ['**/components/*', '**/components', '**/lib/ui/*'], message: 'Lower layers never import UI.' }];
const UPPER_PLATFORM = [
  {
    group: ['**/lib/store/*', '**/lib/vault/*', '**/lib/transports/*', '**/lib/messaging/*', '**/lib/background/*'],
    message: 'Layers 1-2 must not import the platform or background layers.',
  },
];

/** S1: storage.session stays readable by trusted (extension) contexts only. */
const S1_SYNTAX = [
  {
    selector: "MemberExpression[property.name='setAccessLevel']",
    message: 'S1: never widen storage.session access (no setAccessLevel).',
  },
  {
    selector: "Literal[value='TRUSTED_AND_UNTRUSTED_CONTEXTS']",
    message: 'S1: content scripts must not read storage.session.',
  },
];
/**
 * docs/security.md / I2: a provider-supplied key must never index a plain object (`TABLE["__proto__"]` is
 * Object.prototype, `TABLE["toString"]` a function). String-keyed constant tables in lib/ are
 * null-prototype (lib/transcript/lookup.ts `lookupTable`) or a Map.
 */
const LOOKUP_TABLE_SYNTAX = [
  {
    selector:
      "VariableDeclarator[id.name=/^[A-Z][A-Z0-9_]*$/][init.type='ObjectExpression'] > Identifier TSTypeReference[typeName.name='Record'] > TSTypeParameterInstantiation > TSStringKeyword:first-child",
    message:
      'A string-keyed constant table must not be a plain object: wrap it in lookupTable() (lib/transcript/lookup.ts) or use a Map (docs/security.md, I2).',
  },
  {
    selector:
      "VariableDeclarator[id.name=/^[A-Z][A-Z0-9_]*$/] > CallExpression.init[callee.property.name='fromEntries']",
    message:
      'A constant table built with Object.fromEntries has a prototype: wrap it in lookupTable() (docs/security.md, I2).',
  },
];

export default tseslint.config(
  {
    ignores: ['node_modules/**', '.output/**', '.output-*/**', '.wxt/**', 'dist/**', 'coverage/**', 'bench-results/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // S1: storage.session stays readable by trusted (extension) contexts only.
      'no-restricted-syntax': ['error', ...S1_SYNTAX],
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { prefer: 'type-imports', fixStyle: 'inline-type-imports' },
      ],
    },
  },
  {
    files: ['lib/**/*.ts'],
    ignores: ['**/*.test.ts', '**/*.test-helper.ts'],
    rules: { 'no-restricted-syntax': ['error', ...S1_SYNTAX, ...LOOKUP_TABLE_SYNTAX] },
  },
  {
    files: ['lib/transcript/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...BROWSER_AND_SDK_RUNTIME.map((p) => ({ ...p, allowTypeImports: false })),
            ...UI,
            ...UPPER_PLATFORM,
            {
              group: [
                '**/lib/providers/*',
                '**/lib/models/*',
                '**/lib/context/*',
                '**/lib/importers/*',
                '**/lib/cli/*',
              ],
              message: 'Layer 1 (transcript) imports only zod.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['lib/providers/**', 'lib/models/**', 'lib/context/**', 'lib/importers/**', 'lib/cli/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [...BROWSER_AND_SDK_RUNTIME, ...UI, ...UPPER_PLATFORM] }] },
  },
  {
    files: ['lib/store/**', 'lib/vault/**', 'lib/transports/**', 'lib/messaging/**', 'lib/background/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [...UI] }] },
  },
  {
    files: ['components/**', 'lib/ui/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...BROWSER_AND_SDK_RUNTIME.filter((p) => !p.group.includes('webextension-polyfill')),
            {
              group: [
                '**/lib/store/*',
                '**/lib/vault/*',
                '**/lib/transports/*',
                '**/lib/background/*',
                '**/lib/providers/*',
                '**/lib/importers/*',
                '**/lib/context/*',
              ],
              message: 'UI talks to the background through lib/messaging only (DESIGN.md, Layers).',
            },
          ],
        },
      ],
    },
  },
  {
    // Test oracles never import the code they judge (developers' brief; DESIGN.md "Test oracles are independent").
    files: ['test/contract/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/lib/*', '**/lib/**'],
              message: 'Contract validators are written from provider-rules.md and import nothing from lib/.',
            },
          ],
        },
      ],
    },
  },
);
