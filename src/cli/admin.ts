// The operator's command line: the same verbs as the admin HTTP API, straight on the ledger
// database named by DATABASE_URL (and .env). Usage: npm run admin -- <command> [options]
import { parseArgs } from 'node:util';
import { migrateLedger, openLedger } from '../billing/ledger/index.js';
import { ConfigError, loadConfig, loadDotEnv } from '../config.js';
import { AppError } from '../errors.js';
import * as accounts from '../services/accounts.js';

const HELP = `gleaner-admin: manage API keys and credits

Usage: npm run admin -- <command> [options]

Commands:
  keys create --name NAME --credits N   create a key (the key is printed once)
  keys list                             keys with balances
  keys show ID                          one key
  keys revoke ID                        revoke a key (running instances refuse it within KEY_CACHE_SECONDS)
  keys grant ID --credits N [--note T]  add credits to a key
  keys ledger ID [--limit N]            a key's ledger entries, newest first
  reconcile                             check every balance against its ledger;
                                        exits 1 on any difference
  migrate                               apply pending database migrations and exit
                                        (instances also apply them on start)

Options:
  --json                                machine-readable output
  -h, --help                            this help

The database is DATABASE_URL (default sqlite:./data/gleaner.db), read from the
environment or a .env file in the working folder.

Examples:
  npm run admin -- keys create --name analytics-team --credits 5000
  npm run admin -- keys grant key_0123456789abcdef0123 --credits 250 --note "invoice 42"
  npm run reconcile
`;

async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      credits: { type: 'string' },
      note: { type: 'string' },
      limit: { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const [group, verb, id] = positionals;
  if (values.help || !group) {
    process.stdout.write(HELP);
    return values.help ? 0 : 2;
  }
  const num = (s: string | undefined, flag: string): number => {
    const n = Number(s);
    if (s === undefined || !Number.isFinite(n) || n < 0) throw new UsageError(`--${flag} needs a number ≥ 0`);
    return n;
  };
  const out = (v: unknown, text: string) =>
    process.stdout.write(values.json ? `${JSON.stringify(v, null, 2)}\n` : `${text}\n`);

  loadDotEnv(process.env);
  const config = loadConfig(process.env);
  if (group === 'migrate') {
    const applied = await migrateLedger(config.databaseUrl);
    out(
      { applied },
      applied.length > 0 ? `applied migrations ${applied.join(', ')}` : 'the database schema is up to date',
    );
    return 0;
  }
  const ledger = await openLedger(config.databaseUrl);
  try {
    if (group === 'reconcile') {
      const r = await accounts.reconcile({ ledger });
      out(
        r,
        r.problems.length === 0
          ? `ok: ${r.keys} keys, ${r.entries} ledger entries, ${r.openHolds} open holds; every balance matches its ledger`
          : `MISMATCH:\n${r.problems.map((p) => `  ${p.keyId}: ${p.problem}`).join('\n')}`,
      );
      return r.problems.length === 0 ? 0 : 1;
    }
    if (group !== 'keys') throw new UsageError(`unknown command "${group}"`);
    const needId = () => {
      if (!id) throw new UsageError(`keys ${verb} needs a key id`);
      return id;
    };
    switch (verb) {
      case 'create': {
        if (!values.name) throw new UsageError('keys create needs --name');
        const k = await accounts.createKey({ ledger }, values.name, num(values.credits, 'credits'));
        out(k, `created ${k.id} (${k.name}) with ${k.credits} credits\nkey (shown once): ${k.key}`);
        return 0;
      }
      case 'list': {
        const list = await accounts.listKeys({ ledger });
        out(
          list,
          list
            .map(
              (k) =>
                `${k.id}  ${k.prefix}…  ${String(k.credits).padStart(12)} credits  ${k.revoked_at ? 'revoked' : 'active '}  ${k.name}`,
            )
            .join('\n') || 'no keys',
        );
        return 0;
      }
      case 'show': {
        const k = await accounts.getKey({ ledger }, needId());
        out(k, JSON.stringify(k, null, 2));
        return 0;
      }
      case 'revoke': {
        const k = await accounts.revokeKey({ ledger }, needId());
        out(k, `revoked ${k.id}`);
        return 0;
      }
      case 'grant': {
        const k = await accounts.grantCredits(
          { ledger },
          needId(),
          num(values.credits, 'credits'),
          values.note,
        );
        out(k, `${k.id} now has ${k.credits} credits`);
        return 0;
      }
      case 'ledger': {
        const r = await accounts.keyLedger(
          { ledger },
          needId(),
          values.limit ? num(values.limit, 'limit') : 100,
        );
        out(
          r,
          r.entries
            .map(
              (e) =>
                `#${e.seq}  ${e.created_at}  ${e.kind.padEnd(5)}  ${String(e.credits).padStart(10)}  ${e.route ?? ''} ${e.request_id ?? ''}${e.client_request_id ? ` (${e.client_request_id})` : ''} ${e.note ?? ''}`,
            )
            .join('\n') || 'no entries',
        );
        return 0;
      }
      default:
        throw new UsageError(`unknown command "keys ${verb ?? ''}"`);
    }
  } finally {
    await ledger.close();
  }
}

class UsageError extends Error {}

run(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    if (e instanceof UsageError || (e instanceof Error && e.name === 'TypeError' && 'code' in e)) {
      process.stderr.write(`gleaner-admin: ${e.message}\n\n${HELP}`);
      process.exit(2);
    }
    if (e instanceof AppError || e instanceof ConfigError) {
      process.stderr.write(`gleaner-admin: ${e.message}\n`);
      process.exit(1);
    }
    process.stderr.write(`gleaner-admin: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  },
);
