/** One line of `npm run eval`'s table. */
export interface EvalRow {
  task: string; // 'sentiment', 'complaint', 'intent', 'topics', 'keywords'
  dataset: string; // e.g. 'TweetEval val (2,000)'
  metric: string; // e.g. 'macro-recall'
  flash: number;
  pro: number;
  /** VADER's figure on the same data in the same run; null where VADER has no such output */
  vader: number | null;
  /** a published figure to compare with, as text (e.g. 'YAKE 0.316') */
  reference?: string;
  /** the figure the project promises (a floor), when there is one */
  target?: number;
}
