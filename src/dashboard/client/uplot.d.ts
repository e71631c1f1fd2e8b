// The types of uPlot for `import uPlot from './uplot.js'`: in the browser that path is the
// package's ESM build, served by the dashboard plugin from node_modules/uplot (no bundler).
export { default } from 'uplot';
