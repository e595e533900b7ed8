/* global module */
/**
 * The import boundaries of lib/ (docs: architecture; docs/architecture.md, "Layers (imports
 * only point down)"), checked by dependency-cruiser in `npm run lint`. ESLint's
 * no-restricted-imports (eslint.config.js) keeps each layer's own bans; this file adds what a rule
 * on one import string cannot see: circles (type-only imports included), and the background's
 * feature folders.
 *
 * The background (lib/background/) is split by feature: `core/` (router, clock, shared deps types,
 * providers, transport) is shared by every feature and imports none; each other folder is one
 * feature whose `index.ts` is its public face. Another feature, or the wiring at the root
 * (`index.ts`, `handlers.ts`), imports a feature through that file only; everything else in the
 * folder is the feature's internals. Tests may reach into any feature.
 */
const TEST = '\\.(test|test-helper|e2e)\\.tsx?$';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    // The layers (DESIGN.md): transcript → models → providers → context/importers → messaging →
    // store/vault/transports/ui → background. The same bans as eslint.config.js, here on resolved
    // paths, so a relative import ('../store/db') cannot slip past a pattern written for 'lib/store'.
    {
      name: 'layer-1-transcript-imports-no-lib',
      severity: 'error',
      comment: 'Layer 1 (lib/transcript) imports only zod.',
      from: { path: '^lib/transcript/' },
      to: { path: '^(lib/(?!transcript/)|components/)' },
    },
    {
      name: 'layer-2-imports-no-platform',
      severity: 'error',
      comment:
        'Layers 1-2 (transcript, models, providers, context, importers, cli) never import the platform, the background or the UI.',
      from: { path: '^lib/(transcript|models|providers|context|importers|cli)/' },
      to: { path: '^(lib/(store|vault|transports|messaging|background|ui)/|components/)' },
    },
    {
      name: 'platform-imports-no-ui',
      severity: 'error',
      comment: 'Store, vault, transports, messaging and the background never import the UI.',
      from: { path: '^lib/(store|vault|transports|messaging|background)/' },
      to: { path: '^(lib/ui/|components/)' },
    },
    {
      name: 'ui-talks-through-messaging',
      severity: 'error',
      comment: 'The UI talks to the background through lib/messaging only (DESIGN.md, Layers).',
      from: { path: '^(lib/ui/|components/)' },
      to: { path: '^lib/(store|vault|transports|background|providers|importers|context)/' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import circle (type-only imports count too): move the shared shape below both files.',
      from: { path: '^lib/' },
      to: { circular: true },
    },
    {
      name: 'background-is-on-top',
      severity: 'error',
      comment:
        'Nothing in lib/ outside lib/background/ imports the background (store, vault, transports and messaging included).',
      from: { path: '^lib/', pathNot: '^lib/background/' },
      to: { path: '^lib/background/' },
    },
    {
      name: 'background-core-imports-no-feature',
      severity: 'error',
      comment: 'lib/background/core/ is shared by every feature, so it imports none of them (nor the root wiring).',
      from: { path: '^lib/background/core/', pathNot: TEST },
      to: { path: '^lib/background/', pathNot: '^lib/background/core/' },
    },
    {
      name: 'background-feature-internals',
      severity: 'error',
      comment: 'A background feature imports another feature through its index.ts only (core/ is shared).',
      from: { path: '^lib/background/([^/]+)/', pathNot: TEST },
      to: {
        path: '^lib/background/[^/]+/',
        pathNot: ['^lib/background/$1/', '^lib/background/core/', '^lib/background/[^/]+/index\\.ts$'],
      },
    },
    {
      name: 'background-root-uses-feature-faces',
      severity: 'error',
      comment: 'The wiring (lib/background/index.ts, handlers.ts) imports a feature through its index.ts only.',
      from: { path: '^lib/background/[^/]+\\.ts$', pathNot: TEST },
      to: { path: '^lib/background/[^/]+/', pathNot: ['^lib/background/core/', '^lib/background/[^/]+/index\\.ts$'] },
    },
    {
      name: 'background-features-below-wiring',
      severity: 'error',
      comment: 'A feature never imports the wiring at the root of lib/background/ (index.ts, handlers.ts).',
      from: { path: '^lib/background/[^/]+/', pathNot: TEST },
      to: { path: '^lib/background/[^/]+\\.ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|\\.output|\\.wxt)/' },
    // `import type` is an arrow too: a circle of types is still a circle for a reader.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs'] },
    cache: false,
  },
};
