// Credits per day by endpoint: stacked bars in SVG, with a legend and the same figures as a
// table for screen readers. No library: the chart is one kind of bar and the page must stay small.
import { credits, h, replace, s } from './dom.js';

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
  '#b45309',
];

export function colorOf(endpoint: string, order: string[]): string {
  const i = order.indexOf(endpoint);
  return PALETTE[(i < 0 ? order.length : i) % PALETTE.length]!;
}

/** a round step above the largest day */
function niceMax(v: number): number {
  if (v <= 0) return 1;
  const p = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= v) return m * p;
  return 10 * p;
}

export function renderChart(container: HTMLElement, days: UsageDay[], order: string[]) {
  const W = 720;
  const H = 240;
  const left = 48;
  const bottom = 24;
  const top = 8;
  const total = days.reduce((a, d) => a + d.credits, 0);
  const max = niceMax(Math.max(0, ...days.map((d) => d.credits)));
  const plotH = H - top - bottom;
  const slot = (W - left) / Math.max(1, days.length);
  const bar = Math.max(2, slot * 0.7);
  const svg = s('svg', {
    viewBox: `0 0 ${W} ${H}`,
    role: 'img',
    'aria-label': `Credits per day over ${days.length} days: ${credits(total)} in all`,
    class: 'chart-svg',
  });
  for (const f of [0, 0.5, 1]) {
    const y = top + plotH * (1 - f);
    svg.append(
      s('line', { x1: left, x2: W, y1: y, y2: y, class: 'grid' }),
      s('text', { x: left - 6, y: y + 4, 'text-anchor': 'end', class: 'axis' }, credits(max * f)),
    );
  }
  const used = new Set<string>();
  days.forEach((d, i) => {
    const x = left + i * slot + (slot - bar) / 2;
    let y = top + plotH;
    for (const ep of order
      .filter((e) => d.endpoints[e])
      .concat(Object.keys(d.endpoints).filter((e) => !order.includes(e)))) {
      const v = d.endpoints[ep]!;
      const hgt = (v.credits / max) * plotH;
      y -= hgt;
      used.add(ep);
      svg.append(
        s(
          'rect',
          {
            x,
            y,
            width: bar,
            height: Math.max(hgt, 0),
            fill: colorOf(ep, order),
            'data-endpoint': ep,
            'data-date': d.date,
          },
          s('title', {}, `${d.date} ${ep}: ${credits(v.credits)} credits, ${v.calls} calls`),
        ),
      );
    }
    // a label a week, counted back from the last day
    if ((days.length - 1 - i) % 7 === 0)
      svg.append(
        s('text', { x: x + bar / 2, y: H - 6, 'text-anchor': 'middle', class: 'axis' }, d.date.slice(5)),
      );
  });
  container.dataset.totalCredits = String(total);
  const legend = h(
    'ul',
    { class: 'legend' },
    ...[...used].map((ep) => {
      const swatch = h('span', { class: 'swatch' });
      // through the CSSOM: the page's CSP allows no inline style attribute
      swatch.style.backgroundColor = colorOf(ep, order);
      return h('li', {}, swatch, ep);
    }),
  );
  const table = h(
    'details',
    {},
    h('summary', {}, 'Show as a table'),
    h(
      'div',
      { class: 'scroll' },
      h(
        'table',
        {},
        h('thead', {}, h('tr', {}, h('th', {}, 'Day'), h('th', {}, 'Credits'), h('th', {}, 'Calls'))),
        h(
          'tbody',
          {},
          ...days
            .filter((d) => d.calls > 0)
            .map((d) =>
              h('tr', {}, h('td', {}, d.date), h('td', {}, credits(d.credits)), h('td', {}, d.calls)),
            ),
        ),
      ),
    ),
  );
  replace(
    container,
    svg,
    used.size ? legend : h('p', { class: 'muted' }, 'No calls in this period yet.'),
    table,
  );
}
