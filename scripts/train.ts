// `npm run train`: rebuilds every shipped model file under models/ from ../shared/data
// (or $GLEANER_DATA_DIR). Deterministic: fixed seeds and fixed held-out splits.
//   npm run train                # all models
//   npm run train -- sentiment   # one of: sentiment, complaint
import { trainComplaintModel } from './train/complaint.js';
import { trainSentimentModels } from './train/sentiment.js';

const tasks: Record<string, (log: (s: string) => void) => void> = {
  sentiment: trainSentimentModels,
  complaint: trainComplaintModel,
};

const wanted = process.argv.slice(2);
for (const name of wanted)
  if (!(name in tasks)) throw new Error(`unknown model ${name}; known: ${Object.keys(tasks).join(', ')}`);
const t0 = performance.now();
for (const [name, run] of Object.entries(tasks)) {
  if (wanted.length > 0 && !wanted.includes(name)) continue;
  run((s) => console.log(s));
}
console.log(`done in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
