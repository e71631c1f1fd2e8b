// Credits per UTC day by endpoint: stacked bars drawn by uPlot on a canvas. Its legend shows each
// endpoint's credits for the day under the cursor (for the whole period otherwise), a tooltip the
// day's breakdown; with the chart focused, the arrow keys move the cursor from day to day and a
// live region reads the day out. The same figures are a table below it, for screen readers.
import { credits, h, replace } from './dom.js';
import uPlot from './uplot.js';

export interface UsageDay {
  date: string;
  credits: number;
  calls: number;
  endpoints: Record<string, { credits: number; calls: number }>;
}

const PALETTE = [
  '#2563eb',
  '#db2777',
  '#16a34a',
  '#ea580c',
  '#7c3aed',
  '#0891b2',
  '#ca8a04',
  '#dc2626',
  '#4f46e5',
  '#059669',
  '#9333ea',
  '#0d9488',
  '#65a30d',
  '#0284c7',
  '#c026d3',
  '#475569',
  '#b45309',
];

export function colorOf(endpoint: string, order: string[]): string {
  const i = order.indexOf(endpoint);
  return PALETTE[(i < 0 ? order.length : i) % PALETTE.length]!;
}

const DAY_S = 86_400;
const calls = (n: number) => `${n} ${n === 1 ? 'call' : 'calls'}`;
const isoDay = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);

/**
 * Stacks the series as uPlot's stack demo does: each series is the running sum of itself and the
 * ones before it (those `omit` hides stay as they are), and a band from each series down to the
 * one below tells the bar path builder where that series' bar starts.
 */
export function stack(
  raw: number[][],
  omit: (series: number) => boolean,
): { data: number[][]; bands: Array<{ series: [number, number] }> } {
  const accum = raw[0]!.map(() => 0);
  const data = [raw[0]!];
  for (let i = 1; i < raw.length; i++) data.push(omit(i) ? raw[i]! : raw[i]!.map((v, j) => (accum[j]! += v)));
  const bands: Array<{ series: [number, number] }> = [];
  for (let i = 1; i < raw.length; i++) {
    if (omit(i)) continue;
    const above = raw.findIndex((_, j) => j > i && !omit(j));
    if (above > -1) bands.push({ series: [above, i] });
  }
  return { data, bands };
}

let current: { plot: uPlot; resize: ResizeObserver } | null = null;

/** removes the chart (and its resize listener), as on signing out */
export function clearChart(container: HTMLElement) {
  current?.resize.disconnect();
  current?.plot.destroy();
  current = null;
  replace(container);
  delete container.dataset.totalCredits;
}

function cssVar(name: string, fallback: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;
}

export function renderChart(container: HTMLElement, days: UsageDay[], order: string[]) {
  clearChart(container);
  const xs = days.map((d) => Date.parse(`${d.date}T00:00:00Z`) / 1000);
  const seen = new Set(days.flatMap((d) => Object.keys(d.endpoints)));
  const used = order.filter((e) => seen.has(e)).concat([...seen].filter((e) => !order.includes(e)));
  const raw = [xs, ...used.map((ep) => days.map((d) => d.endpoints[ep]?.credits ?? 0))];
  const sums = raw.map((values) => values.reduce((a, v) => a + v, 0));
  const total = days.reduce((a, d) => a + d.credits, 0);
  container.dataset.totalCredits = String(total);

  const first = days[0]?.date ?? '';
  const last = days.at(-1)?.date ?? '';
  const plotEl = h('div', { class: 'chart-plot' });
  const spoken = h('p', { class: 'sr-only', 'aria-live': 'polite' });
  const tip = h('div', { class: 'chart-tip', hidden: true, 'aria-hidden': 'true' });
  const table = h(
    'details',
    {},
    h('summary', {}, 'Show as a table'),
    h(
      'div',
      { class: 'scroll' },
      h(
        'table',
        { id: 'chart-table' },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            h('th', { scope: 'col' }, 'Day'),
            ...used.map((ep) => h('th', { scope: 'col', class: 'num' }, ep)),
            h('th', { scope: 'col', class: 'num' }, 'Credits'),
            h('th', { scope: 'col', class: 'num' }, 'Calls'),
          ),
        ),
        h(
          'tbody',
          {},
          ...days
            .filter((d) => d.calls > 0)
            .map((d) =>
              h(
                'tr',
                { 'data-date': d.date },
                h('th', { scope: 'row' }, d.date),
                ...used.map((ep) => h('td', { class: 'num' }, credits(d.endpoints[ep]?.credits ?? 0))),
                h('td', { class: 'num' }, credits(d.credits)),
                h('td', { class: 'num' }, d.calls),
              ),
            ),
        ),
      ),
    ),
  );
  replace(
    container,
    plotEl,
    spoken,
    used.length ? null : h('p', { class: 'muted' }, 'No calls in this period yet.'),
    table,
  );

  const muted = cssVar('--muted', '#4b5563');
  const line = cssVar('--line', '#d1d5db');
  const bars = uPlot.paths.bars!({ size: [0.7, 40], align: 0 });
  const stacked = stack(raw, () => false);
  const height = () => (plotEl.clientWidth < 480 ? 200 : 260);
  const width = () => Math.max(200, plotEl.clientWidth);

  /** the day under the cursor, in words */
  const describe = (i: number) => {
    const d = days[i]!;
    const parts = used
      .filter((ep) => d.endpoints[ep])
      .map((ep) => `${ep} ${credits(d.endpoints[ep]!.credits)}`);
    return `${d.date}: ${credits(d.credits)} credits, ${calls(d.calls)}${parts.length ? ` (${parts.join(', ')})` : ''}`;
  };

  const showTip = (u: uPlot) => {
    const i = u.cursor.idx;
    const d = i == null ? undefined : days[i];
    if (i == null || !d || u.cursor.left == null || u.cursor.left < 0) {
      tip.hidden = true;
      return;
    }
    replace(
      tip,
      h('strong', {}, d.date),
      ...used
        .filter((ep) => d.endpoints[ep])
        .map((ep) => {
          const swatch = h('span', { class: 'swatch' });
          // through the CSSOM: the page's CSP allows no inline style attribute
          swatch.style.backgroundColor = colorOf(ep, order);
          const v = d.endpoints[ep]!;
          return h('div', {}, swatch, `${ep}: ${credits(v.credits)} credits, ${calls(v.calls)}`);
        }),
      h('div', {}, `In all: ${credits(d.credits)} credits, ${calls(d.calls)}`),
    );
    tip.hidden = false;
    const over = u.over.getBoundingClientRect();
    const left = u.cursor.left + 12;
    tip.style.left = `${left + tip.offsetWidth > over.width ? Math.max(0, u.cursor.left - 12 - tip.offsetWidth) : left}px`;
    tip.style.top = `${Math.max(0, Math.min((u.cursor.top ?? 0) - tip.offsetHeight / 2, over.height - tip.offsetHeight))}px`;
  };

  const toggles: HTMLElement[] = [];
  const opts: uPlot.Options = {
    width: width(),
    height: height(),
    tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
    scales: {
      // half a day either side, so that the first and last bars are whole
      x: { time: true, range: () => [(xs[0] ?? 0) - DAY_S / 2, (xs.at(-1) ?? 0) + DAY_S / 2] },
      y: { range: (_u, _min, max) => [0, uPlot.rangeNum(0, Math.max(max, 1), 0.1, true)[1]] },
    },
    axes: [
      {
        stroke: muted,
        grid: { show: false },
        ticks: { stroke: line },
        space: 56,
        values: (_u, splits) => splits.map((s) => isoDay(s).slice(5)),
      },
      {
        stroke: muted,
        grid: { stroke: line, width: 1 },
        ticks: { show: false },
        size: 56,
        values: (_u, splits) => splits.map((s) => credits(s)),
      },
    ],
    series: [
      { label: 'Day (UTC)', value: (_u, v) => (v == null ? 'last 30 days' : isoDay(v)) },
      ...used.map(
        (ep): uPlot.Series => ({
          label: ep,
          stroke: colorOf(ep, order),
          fill: colorOf(ep, order),
          width: 0,
          paths: bars,
          points: { show: false },
          // the endpoint's own credits, not the stacked sum the bar is drawn to
          value: (_u, _v, si, i) => credits(i == null ? sums[si]! : raw[si]![i]!),
        }),
      ),
    ],
    bands: stacked.bands,
    legend: { live: true },
    cursor: { points: { show: false }, drag: { x: false, y: false } },
    hooks: {
      setCursor: [showTip],
      // a series switched off in the legend: stack the others again without it
      setSeries: [
        (u) => {
          toggles.forEach((label, i) => {
            label?.setAttribute('aria-pressed', String(u.series[i]!.show));
          });
          const again = stack(raw, (i) => !u.series[i]!.show);
          u.delBand(null);
          for (const b of again.bands) u.addBand(b);
          u.setData(again.data as uPlot.AlignedData);
        },
      ],
    },
  };
  const plot = new uPlot(opts, stacked.data as uPlot.AlignedData, plotEl);
  // the plot area (not the legend, whose entries are buttons) is the picture, and takes the focus
  const area = plot.over;
  area.tabIndex = 0;
  area.setAttribute('role', 'img');
  area.setAttribute(
    'aria-label',
    `Credits per day by endpoint from ${first} to ${last}: ${credits(total)} in all. The arrow keys read a day; the table below has every figure.`,
  );
  area.append(tip);

  // the legend's entries switch a series on and off on a click; the keyboard gets the same
  Array.from(plot.root.querySelectorAll<HTMLElement>('.u-legend .u-series > th')).forEach((label, i) => {
    if (i === 0) return;
    toggles[i] = label;
    label.tabIndex = 0;
    label.setAttribute('role', 'button');
    label.setAttribute('aria-pressed', 'true');
    label.addEventListener('keydown', (e) => {
      if (e.key !== 'Enter' && e.key !== ' ') return;
      e.preventDefault();
      plot.setSeries(i, { show: !plot.series[i]!.show });
    });
  });

  // the arrow keys move the cursor along the days, for those who do not point
  let at: number | null = null;
  const moveTo = (i: number) => {
    at = Math.max(0, Math.min(days.length - 1, i));
    const top = stacked.data.at(-1)?.[at] ?? 0;
    plot.setCursor({ left: plot.valToPos(xs[at]!, 'x'), top: plot.valToPos(top / 2, 'y') });
    spoken.textContent = describe(at);
  };
  area.addEventListener('keydown', (e) => {
    const step: Record<string, (i: number) => number> = {
      ArrowLeft: (i) => i - 1,
      ArrowRight: (i) => i + 1,
      Home: () => 0,
      End: () => days.length - 1,
      PageUp: (i) => i - 7,
      PageDown: (i) => i + 7,
    };
    const go = step[e.key];
    if (!go || !days.length) return;
    e.preventDefault();
    moveTo(go(at ?? days.length - 1));
  });
  area.addEventListener('focus', () => {
    // from the keyboard only: a click puts the cursor where the pointer is
    if (days.length && area.matches(':focus-visible')) moveTo(at ?? days.length - 1);
  });
  area.addEventListener('blur', () => {
    at = null;
    plot.setCursor({ left: -10, top: -10 });
  });

  const resize = new ResizeObserver(() => {
    if (plot.width !== width() || plot.height !== height())
      plot.setSize({ width: width(), height: height() });
  });
  resize.observe(plotEl);
  current = { plot, resize };
}
