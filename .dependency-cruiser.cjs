// The structure, checked by `npm run lint` (README, "Structure"): the UI's layers import only
// downward, features stand apart, the contract imports nothing of ours, only the entry point
// knows the sandbox and the sandbox takes only the contract, and no module of server/, web/ or
// sandbox/ imports itself through others.

const FEATURES = '(screens|dashboard|deployment|pages)';
const downward = 'Layers import only downward: shared (lib, i18n, api, ui) <- engine <- features <- app <- main.tsx.';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      comment: 'A module never imports itself through others.',
      severity: 'error',
      from: { path: '^(server|web|sandbox)/' },
      to: { circular: true },
    },
    {
      name: 'resolvable',
      comment: 'Every import of ours resolves to a file.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true, path: '^[.#]' },
    },
    // web: shared <- engine <- features <- app <- main.tsx
    {
      name: 'shared-imports-down',
      comment: downward,
      severity: 'error',
      from: { path: '^web/(lib|i18n|api|ui)/' },
      to: { path: `^web/(engine|${FEATURES}|app)/|^web/main\\.tsx$` },
    },
    {
      name: 'lib-is-the-bottom',
      comment: 'web/lib holds plain helpers and stores and imports no other layer.',
      severity: 'error',
      from: { path: '^web/lib/' },
      to: { path: '^web/(i18n|api|ui)/' },
    },
    {
      name: 'i18n-needs-only-lib',
      comment: 'web/i18n needs only web/lib.',
      severity: 'error',
      from: { path: '^web/i18n/' },
      to: { path: '^web/(api|ui)/' },
    },
    {
      name: 'api-knows-no-components',
      comment: 'The API client knows nothing of components; the app wires them in.',
      severity: 'error',
      from: { path: '^web/api/' },
      to: { path: '^web/ui/' },
    },
    {
      name: 'ui-gets-data-from-above',
      comment: 'Components get their data from the layers above, not from the API client.',
      severity: 'error',
      from: { path: '^web/ui/' },
      to: { path: '^web/api/' },
    },
    {
      name: 'engine-imports-down',
      comment: downward,
      severity: 'error',
      from: { path: '^web/engine/' },
      to: { path: `^web/(${FEATURES}|app)/|^web/main\\.tsx$` },
    },
    {
      name: 'features-stand-apart',
      comment: `${downward} What two features need goes down to the engine or the shared layer.`,
      severity: 'error',
      from: { path: `^web/${FEATURES}/` },
      to: { path: `^web/${FEATURES}/`, pathNot: '^web/$1/' },
    },
    {
      name: 'features-import-down',
      comment: downward,
      severity: 'error',
      from: { path: `^web/${FEATURES}/` },
      to: { path: '^web/app/|^web/main\\.tsx$' },
    },
    {
      name: 'app-imports-down',
      comment: downward,
      severity: 'error',
      from: { path: '^web/app/' },
      to: { path: '^web/main\\.tsx$' },
    },
    // server and the contract
    {
      name: 'web-takes-only-the-contract',
      comment: 'web/ imports nothing from server/ but the contract.',
      severity: 'error',
      from: { path: '^web/' },
      to: { path: '^server/', pathNot: '^server/contract/' },
    },
    {
      name: 'contract-imports-nothing-of-ours',
      comment: 'The contract imports nothing of ours, so the UI, the gateway and the sandbox can all take it.',
      severity: 'error',
      from: { path: '^server/contract/' },
      to: { path: '^(server|web|tests)/', pathNot: '^server/contract/' },
    },
    {
      name: 'server-plumbing-knows-no-feature',
      comment:
        'server/lib and server/redis hold what the feature folders share (JSON-lines files, stream pages, the Redis connection and fallback): they import no feature, so each feature can be read and moved on its own.',
      severity: 'error',
      from: { path: '^server/(lib|redis)/' },
      to: { path: '^server/(session|events|error-log|audit|approvals|saved-views)/' },
    },
    {
      name: 'only-the-entry-point-knows-the-sandbox',
      comment:
        'Only server/main.ts imports the sandbox (handed to startGateway, loaded from its own bundle), so a production gateway never loads it.',
      severity: 'error',
      from: { path: '^(server|web)/', pathNot: '^server/main\\.ts$' },
      to: { path: '^sandbox/' },
    },
    {
      name: 'sandbox-takes-only-the-contract',
      comment: 'The sandbox is a package of its own: of the rest it imports only the contract, the calls it answers.',
      severity: 'error',
      from: { path: '^sandbox/' },
      to: { path: '^(server|web|tests|scripts)/', pathNot: '^server/contract/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules)/' },
    // Type-only imports count: a type cycle is a cycle of the design too.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      extensions: ['.ts', '.tsx', '.js', '.mjs'],
    },
  },
};
