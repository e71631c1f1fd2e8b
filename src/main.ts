// Process entry: configuration → services → HTTP server, with a sweeper for expired holds and
// a graceful shutdown that lets in-flight calls finish (and settle) before the ledger closes.
import { buildApp } from './app.js';
import { createServices } from './compose.js';
import { ConfigError, loadConfig, loadDotEnv } from './config.js';
import { createLogger } from './logger.js';
import { Metrics } from './metrics/index.js';
import { ensureDemoKey } from './services/accounts.js';

async function main(): Promise<void> {
  loadDotEnv(process.env);
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(process.env);
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`gleaner: ${e.message}\n`);
      process.exit(78);
    }
    throw e;
  }
  const logger = createLogger(config.LOG_LEVEL);
  let services: Awaited<ReturnType<typeof createServices>>;
  try {
    // process metrics (CPU, memory, event loop, GC) describe this process: only here, not in every
    // app a test builds
    services = await createServices(config, logger, { metrics: new Metrics({ processMetrics: true }) });
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`gleaner: ${e.message}\n`);
      process.exit(78);
    }
    throw e;
  }
  const demo = await ensureDemoKey(services, config.DEMO_KEY_CREDITS);
  const app = await buildApp({ services, logger });
  await app.listen({ port: config.PORT, host: config.HOST });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  const base = `http://${config.HOST === '0.0.0.0' ? '127.0.0.1' : config.HOST}:${port}`;
  if (demo) {
    // the one time this key is ever shown: it is stored only as a hash. On stderr, apart from the
    // JSON log lines on stdout, which never hold a key
    process.stderr.write(
      [
        '',
        `  Gleaner created a demo key with ${config.DEMO_KEY_CREDITS} credits (shown this once, stored only as a hash):`,
        '',
        `    X-API-Key: ${demo.key}`,
        '',
        `  Try: curl -s ${base}/api/v1/ml/analyze -H 'Content-Type: application/json' \\`,
        `         -H 'X-API-Key: ${demo.key}' -d '{"texts":["I love this!"],"enrich":["sentiment"]}'`,
        '',
      ].join('\n') + '\n',
    );
  }
  logger.info(
    { url: base, database: config.databaseUrl.split(':')[0], sources: config.sources },
    'listening',
  );

  const sweep = async () => {
    try {
      const expired = await services.ledger.expireHolds();
      if (expired > 0) logger.warn({ expired }, 'expired holds released');
      await services.ledger.purgeIdempotency();
    } catch (err) {
      logger.error({ err }, 'sweep failed');
    }
  };
  const timer = setInterval(sweep, config.SWEEP_INTERVAL_SECONDS * 1000);
  timer.unref();
  void sweep();

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: finishing in-flight requests');
    clearInterval(timer);
    const force = setTimeout(() => process.exit(1), config.REQUEST_TIMEOUT_MS + 10_000);
    force.unref();
    try {
      await app.close();
      await services.close();
      process.exit(0);
    } catch (err) {
      logger.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((err) => {
  process.stderr.write(
    `gleaner: failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  process.exit(1);
});
