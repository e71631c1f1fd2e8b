// The import rules of docs/architecture.md, checked by `npm run lint`. Data flows one way:
// http → services → (billing, sources, enrichment) ; contract is shared by everything and imports
// nothing of the server. The client packages import nothing of the server: what they know of the
// contract is generated from the OpenAPI document.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'modules do not import each other in a cycle',
      from: { path: '^src' },
      to: { circular: true },
    },
    {
      name: 'contract-stands-alone',
      severity: 'error',
      comment: 'the contract feeds the server and the OpenAPI document: it imports nothing else of ours',
      from: { path: '^src/contract/' },
      to: { path: '^src/', pathNot: '^src/contract/' },
    },
    {
      name: 'http-goes-through-services',
      severity: 'error',
      comment: 'the HTTP layer calls service verbs, never the ledger, a source or the analyzer',
      from: { path: '^src/(http/|app\\.ts)' },
      to: {
        path: '^src/(billing/ledger|sources|enrichment|cache|ratelimit/(memory|redis|postgres))',
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'below-services-no-http',
      severity: 'error',
      comment: 'services and everything below them know nothing of HTTP',
      from: { path: '^src/(services|billing|sources|enrichment|cache|ratelimit|metrics)/' },
      to: { path: '^(src/http/|src/app\\.ts$|node_modules/fastify)' },
    },
    {
      name: 'parts-do-not-call-services',
      severity: 'error',
      comment:
        'the pluggable parts (ledger, sources, analyzer, caches, rate limits) do not call service verbs',
      from: { path: '^src/(billing|sources|enrichment|cache|ratelimit)/' },
      to: { path: '^src/(services|compose\\.ts)' },
    },
    {
      name: 'sources-and-analyzer-apart',
      severity: 'error',
      comment: 'platform sources and the analyzer do not depend on each other or on the ledger',
      from: { path: '^src/(sources|enrichment)/' },
      to: { path: '^src/(billing|sources|enrichment)/', pathNot: '^src/$1/' },
    },
    {
      name: 'product-not-from-tooling',
      severity: 'error',
      comment: 'the product never imports tests, benchmarks or scripts',
      from: { path: '^(src|packages)/' },
      to: { path: '^(test|bench|scripts)/' },
    },
    {
      name: 'dashboard-client-in-the-browser',
      severity: 'error',
      comment: "the dashboard's browser modules are served as they are: they import only each other",
      from: { path: '^src/dashboard/client/' },
      to: { pathNot: '^src/dashboard/client/' },
    },
    {
      name: 'bench-not-from-tests',
      severity: 'error',
      comment: 'benchmarks use the shared harness in scripts/lib, not test code',
      from: { path: '^bench/' },
      to: { path: '^test/' },
    },
    {
      name: 'packages-stand-alone',
      severity: 'error',
      comment:
        'the client packages are installed without the server: they import nothing of it (their contract tables are generated from docs/openapi.json)',
      from: { path: '^packages/' },
      to: { path: '^src/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|data|coverage)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
    },
  },
};
