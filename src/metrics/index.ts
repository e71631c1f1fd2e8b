// Prometheus metrics of one instance (prom-client, one registry per app so that tests building
// many apps do not share counters). Served at GET /metrics in the text format; see
// docs/operations.md for what each series means and how to protect the endpoint.
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { FastCounter, FastHistogram } from './fast.js';

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

export class Metrics {
  readonly registry = new Registry();

  // the series touched on every call are FastCounter / FastHistogram (see fast.ts)
  readonly httpRequests = new FastCounter(
    'gleaner_http_requests_total',
    'HTTP requests answered, by route template, method and status',
    ['route', 'method', 'status'],
    this.registry,
  );
  readonly httpDuration = new FastHistogram(
    'gleaner_http_request_duration_seconds',
    'Time from the request to its response, by route template, method and status',
    ['route', 'method', 'status'],
    LATENCY_BUCKETS,
    this.registry,
  );
  readonly creditsCharged = new FastCounter(
    'gleaner_credits_charged_total',
    'Credits debited by successful calls (replays of an Idempotency-Key excluded), by route',
    ['route'],
    this.registry,
  );
  readonly holdsOpen = new Gauge({
    name: 'gleaner_holds_open',
    help: 'Credit holds this instance opened for calls still running (sum over instances for the total)',
    registers: [this.registry],
  });
  readonly holdsExpired = new Counter({
    name: 'gleaner_holds_expired_total',
    help: 'Holds released by the sweeper because their call never settled (a crashed instance)',
    registers: [this.registry],
  });
  readonly upstreamCalls = new FastCounter(
    'gleaner_upstream_calls_total',
    'Calls to platform backends, by platform, backend, operation and outcome (ok or the error kind)',
    ['platform', 'backend', 'operation', 'outcome'],
    this.registry,
  );
  readonly upstreamItemsSkipped = new FastCounter(
    'gleaner_upstream_items_skipped_total',
    'Upstream items a backend could not read (layout drift) and left out of a reply, by platform, backend and operation',
    ['platform', 'backend', 'operation'],
    this.registry,
  );
  readonly upstreamDuration = new FastHistogram(
    'gleaner_upstream_duration_seconds',
    'Duration of calls to platform backends',
    ['platform', 'backend', 'operation'],
    LATENCY_BUCKETS,
    this.registry,
  );
  readonly cacheRequests = new Counter({
    name: 'gleaner_cache_requests_total',
    help: 'Cache lookups by cache (source, enrichment, key) and result (hit, miss)',
    labelNames: ['cache', 'result'] as const,
    registers: [this.registry],
  });
  readonly enrichmentTexts = new Counter({
    name: 'gleaner_enrichment_texts_total',
    help: 'Texts analyzed by an enrichment backend (cache hits excluded), by provider and outcome',
    labelNames: ['provider', 'outcome'] as const,
    registers: [this.registry],
  });
  readonly enrichmentDuration = new Histogram({
    name: 'gleaner_enrichment_duration_seconds',
    help: 'Duration of one enrichment batch, by provider (wall time of the call: under concurrency it includes waits for other requests)',
    labelNames: ['provider'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  readonly enrichmentBusy = new Counter({
    name: 'gleaner_enrichment_busy_seconds_total',
    help: 'Seconds the built-in analyzer spent analyzing (main thread and workers, without waits), by provider',
    labelNames: ['provider'] as const,
    registers: [this.registry],
  });
  readonly rateLimited = new Counter({
    name: 'gleaner_rate_limited_total',
    help: 'Requests refused with 429, by reason (requests, concurrency, auth_failures)',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });
  readonly storeErrors = new Counter({
    name: 'gleaner_store_errors_total',
    help: 'Failures of a shared store that were tolerated (rate limits let through, cache missed)',
    labelNames: ['store'] as const,
    registers: [this.registry],
  });

  /** the request series of one route, method and status, bound once */
  private readonly http = new Map<
    string,
    { requests: { inc(): void }; duration: { observe(seconds: number): void } }
  >();
  private readonly credits = new Map<string, { inc(n: number): void }>();

  httpSeries(route: string, method: string, status: number) {
    const k = `${method} ${status} ${route}`;
    let s = this.http.get(k);
    if (!s) {
      const labels = { route, method, status: String(status) };
      s = { requests: this.httpRequests.labels(labels), duration: this.httpDuration.labels(labels) };
      this.http.set(k, s);
    }
    return s;
  }

  creditsFor(route: string) {
    let c = this.credits.get(route);
    if (!c) {
      c = this.creditsCharged.labels({ route });
      this.credits.set(route, c);
    }
    return c;
  }

  constructor(opts: { processMetrics?: boolean } = {}) {
    // process metrics (CPU, memory, event-loop lag, GC) watch the whole process: main.ts turns them
    // on for the real one; apps built in tests go without
    if (opts.processMetrics) collectDefaultMetrics({ register: this.registry, prefix: 'gleaner_' });
  }

  render(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
