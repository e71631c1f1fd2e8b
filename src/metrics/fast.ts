// Labelled counters and histograms for the series touched on every request. prom-client's own
// hash the label object on every inc()/observe(), even through a child from labels(); these keep
// each series as a plain object found once and bound by the caller, and hand prom-client's
// registry the same data at scrape time (same text format, same series names).
import type { Registry } from 'prom-client';

type Labels<L extends string> = Record<L, string>;

interface MetricValue {
  value: number;
  labels: Record<string, string | number>;
  metricName?: string;
}

abstract class FastMetric<L extends string, S> {
  readonly aggregator = 'sum';
  protected readonly series = new Map<string, { labels: Labels<L>; state: S }>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly labelNames: readonly L[],
    registry: Registry,
  ) {
    registry.registerMetric(this as never);
  }

  protected abstract fresh(): S;

  protected stateOf(labels: Labels<L>): S {
    const key = this.labelNames.map((n) => labels[n]).join('\u0000');
    let s = this.series.get(key);
    if (s === undefined) {
      const own = {} as Labels<L>;
      for (const n of this.labelNames) own[n] = labels[n];
      s = { labels: own, state: this.fresh() };
      this.series.set(key, s);
    }
    return s.state;
  }

  protected abstract values(): MetricValue[];

  get() {
    return {
      name: this.name,
      help: this.help,
      type: this.type,
      values: this.values(),
      aggregator: this.aggregator,
    };
  }

  abstract readonly type: 'counter' | 'histogram';

  reset(): void {
    this.series.clear();
  }
}

export class FastCounter<L extends string> extends FastMetric<L, { value: number }> {
  readonly type = 'counter';

  protected fresh() {
    return { value: 0 };
  }

  /** the series of these labels, to increment without looking it up again */
  labels(labels: Labels<L>): { inc(n?: number): void } {
    const s = this.stateOf(labels);
    return {
      inc: (n = 1) => {
        s.value += n;
      },
    };
  }

  inc(labels: Labels<L>, n = 1): void {
    this.stateOf(labels).value += n;
  }

  protected values(): MetricValue[] {
    return [...this.series.values()].map((s) => ({ value: s.state.value, labels: s.labels }));
  }
}

interface HistogramState {
  /** counts per bucket, not cumulative; the last one is +Inf */
  counts: Float64Array;
  sum: number;
  count: number;
}

export class FastHistogram<L extends string> extends FastMetric<L, HistogramState> {
  readonly type = 'histogram';

  constructor(
    name: string,
    help: string,
    labelNames: readonly L[],
    private readonly buckets: readonly number[],
    registry: Registry,
  ) {
    super(name, help, labelNames, registry);
  }

  protected fresh(): HistogramState {
    return { counts: new Float64Array(this.buckets.length + 1), sum: 0, count: 0 };
  }

  labels(labels: Labels<L>): { observe(v: number): void } {
    const s = this.stateOf(labels);
    const bounds = this.buckets;
    return {
      observe: (v: number) => {
        let i = 0;
        while (i < bounds.length && v > bounds[i]!) i++;
        s.counts[i]!++;
        s.sum += v;
        s.count++;
      },
    };
  }

  protected values(): MetricValue[] {
    const out: MetricValue[] = [];
    for (const { labels, state } of this.series.values()) {
      let acc = 0;
      this.buckets.forEach((b, i) => {
        acc += state.counts[i]!;
        out.push({ value: acc, labels: { le: b, ...labels }, metricName: `${this.name}_bucket` });
      });
      out.push({ value: state.count, labels: { le: '+Inf', ...labels }, metricName: `${this.name}_bucket` });
      out.push({ value: state.sum, labels, metricName: `${this.name}_sum` });
      out.push({ value: state.count, labels, metricName: `${this.name}_count` });
    }
    return out;
  }
}
