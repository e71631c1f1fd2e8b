// `npm run bench`: runs every benchmark file in this list, in order. Add new files here.
//   npm run bench                # all
//   npm run bench -- enrichment  # by name
const BENCHES: Record<string, () => Promise<{ default: () => Promise<void> }>> = {
  enrichment: () => import('./enrichment.js'),
  'enrichment-http': () => import('./enrichment-http.js'),
  'account-usage': () => import('./account-usage.js'),
};

const wanted = process.argv.slice(2);
for (const [name, load] of Object.entries(BENCHES)) {
  if (wanted.length > 0 && !wanted.includes(name)) continue;
  console.log(`\n== ${name}`);
  await (await load()).default();
}
