// The dashboard's style sheet, served as /dashboard/assets/dashboard.css.
export const CSS = `
:root { color-scheme: light dark; --fg: #111827; --bg: #f9fafb; --card: #fff; --muted: #4b5563; --line: #d1d5db; --accent: #1d4ed8; --ok: #166534; --err: #b91c1c; }
@media (prefers-color-scheme: dark) { :root { --fg: #f3f4f6; --bg: #111827; --card: #1f2937; --muted: #cbd5e1; --line: #374151; --accent: #93c5fd; --ok: #86efac; --err: #fca5a5; } }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); }
header { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: center; padding: .75rem 1rem; border-bottom: 1px solid var(--line); background: var(--card); }
header h1 { font-size: 1.15rem; margin: 0; flex: 1 1 auto; }
nav { display: flex; flex-wrap: wrap; gap: .25rem; }
main { max-width: 72rem; margin: 0 auto; padding: 1rem; }
section.card { background: var(--card); border: 1px solid var(--line); border-radius: .5rem; padding: 1rem; margin-bottom: 1rem; }
h2 { font-size: 1.1rem; margin: 0 0 .75rem; }
button, input, select, textarea { font: inherit; color: inherit; }
button { background: var(--accent); color: var(--card); border: 0; border-radius: .375rem; padding: .5rem .9rem; cursor: pointer; min-height: 2.5rem; }
button.secondary, nav button { background: transparent; color: var(--fg); border: 1px solid var(--line); }
nav button[aria-current="page"] { border-color: var(--accent); color: var(--accent); font-weight: 600; }
button.small { min-height: 2rem; padding: .25rem .6rem; font-size: .875rem; }
button:disabled { opacity: .5; cursor: default; }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
input, select, textarea { width: 100%; padding: .45rem .6rem; border: 1px solid var(--line); border-radius: .375rem; background: var(--bg); }
input[type="checkbox"] { width: auto; }
label { display: block; font-weight: 600; margin-bottom: .2rem; }
label.choice { display: inline-block; font-weight: 400; margin-right: 1rem; }
fieldset { border: 1px solid var(--line); border-radius: .375rem; }
small { display: block; color: var(--muted); }
.field { margin-bottom: .8rem; }
.req { color: var(--err); }
.row { display: flex; flex-wrap: wrap; gap: .75rem; align-items: end; }
.row > * { flex: 1 1 12rem; }
.row > button { flex: 0 0 auto; }
.balance { font-size: 2.25rem; font-weight: 700; }
/* focused after signing in so that a screen reader starts there; not a control, so no ring */
.balance:focus { outline: none; }
dl.figures { display: grid; grid-template-columns: repeat(auto-fit, minmax(10rem, 1fr)); gap: .5rem 1rem; margin: .5rem 0 0; }
dl.figures dt { color: var(--muted); font-size: .875rem; }
dl.figures dd { margin: 0; font-weight: 600; }
.chart-plot { width: 100%; min-height: 12.5rem; }
.chart-plot .uplot { width: 100%; font-family: inherit; }
.chart-plot .u-over:focus-visible { outline-offset: 0; }
.chart-plot .u-legend { font-size: .875rem; text-align: left; margin-top: .5rem; width: auto; }
.chart-plot .u-legend th, .chart-plot .u-legend td { border: 0; padding: .15rem .25rem; }
.chart-plot .u-legend .u-series th { cursor: pointer; font-weight: 400; border-radius: .25rem; }
.chart-plot .u-legend .u-value { font-variant-numeric: tabular-nums; font-weight: 600; }
.chart-tip { position: absolute; z-index: 10; pointer-events: none; background: var(--card); color: var(--fg); border: 1px solid var(--line); border-radius: .375rem; padding: .4rem .6rem; font-size: .8rem; line-height: 1.4; white-space: nowrap; box-shadow: 0 2px 8px rgb(0 0 0 / .15); }
.chart-tip[hidden] { display: none; }
.sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
.swatch { display: inline-block; width: .8rem; height: .8rem; border-radius: 2px; margin-right: .35rem; vertical-align: -1px; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; font-size: .9rem; }
th, td { text-align: left; padding: .4rem .5rem; border-bottom: 1px solid var(--line); white-space: nowrap; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
pre { background: var(--bg); border: 1px solid var(--line); border-radius: .375rem; padding: .6rem; overflow: auto; max-height: 24rem; font-size: .85rem; white-space: pre-wrap; word-break: break-word; }
.status { min-height: 1.5rem; margin: .5rem 0; }
.status.ok { color: var(--ok); }
.status.error { color: var(--err); }
.muted { color: var(--muted); }
.cost { font-weight: 700; }
.secret { display: block; padding: .5rem; border: 2px dashed var(--accent); word-break: break-all; }
.pager { display: flex; gap: .5rem; align-items: center; margin-top: .5rem; }
@media (min-width: 60rem) { .cols { display: grid; grid-template-columns: 1fr 1fr; gap: 1rem; } }
`;
