// `npm run train`: rebuilds every shipped model file under models/ from ../shared/data
// (or $GLEANER_DATA_DIR). Deterministic: fixed seeds and fixed held-out splits.
//   npm run train                # all models
//   npm run train -- sentiment   # one of: sentiment, word-vectors, complaint (then intent),
//                                #   topics, intent
import { complaintThroughIntentCv, trainComplaintModel } from './train/complaint.js';
import { trainCueModel, trainIntentModel } from './train/intent.js';
import { trainSentimentModels } from './train/sentiment.js';
import { trainTopicExpansion } from './train/topics.js';
import { trainWordVectors } from './train/word-vectors.js';

const tasks: Record<string, (log: (s: string) => void) => void> = {
  sentiment: trainSentimentModels,
  // read by the intent model: after a change here, run intent too (`npm run train -- word-vectors intent`)
  'word-vectors': trainWordVectors,
  // the intent model reads the complaint model, and the complaint CV reads intent
  complaint: (log) => {
    trainComplaintModel(log);
    trainCueModel(log);
    trainIntentModel(log);
    complaintThroughIntentCv(log);
  },
  topics: trainTopicExpansion,
  intent: (log) => {
    trainCueModel(log);
    trainIntentModel(log);
    complaintThroughIntentCv(log);
  },
};

const wanted = process.argv.slice(2);
for (const name of wanted)
  if (!(name in tasks)) throw new Error(`unknown model ${name}; known: ${Object.keys(tasks).join(', ')}`);
const t0 = performance.now();
for (const [name, run] of Object.entries(tasks)) {
  if (wanted.length > 0 && !wanted.includes(name)) continue;
  if (wanted.length === 0 && name === 'intent') continue; // already run by complaint
  run((s) => console.log(s));
}
console.log(`done in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
