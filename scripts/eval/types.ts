/** A figure of one model on one measure: per-fold values of the cross-validation (mean ± sd is
 *  printed) and the figure on the final split (read once per release; absent with --cv). */
export interface Figure {
  cv?: readonly number[];
  final?: number;
  /** a note printed after the figures (e.g. "predicted 31 / true 30") */
  note?: string;
}

/** One line of `npm run eval`'s table. */
export interface EvalRow {
  task: string; // 'sentiment', 'complaint', 'intent', 'topics', 'keywords'
  /** what is measured and on which data, e.g. 'tweets, macro-recall' */
  measure: string;
  flash: Figure;
  pro: Figure;
  /** reference models on the same folds and final split (VADER, YAKE, the plain linear model) */
  refs?: Record<string, Figure>;
  /** a published figure to compare with, as text */
  published?: string;
  /** the floor the project promises; checked on the CV mean and on the final figure */
  target?: number;
  /** a target relative to a reference: flash and pro must reach at least this reference's figure */
  atLeast?: string;
  /** pro must beat flash by this much (CV mean and final) */
  proMargin?: number;
  /** a row that holds a check of its own (e.g. predicted vs true counts); true means missed */
  missed?: boolean;
}

/** whether the final split is read in this run (`npm run eval -- --cv` leaves it out) */
export const READ_FINAL = !process.argv.includes('--cv');

/** pro must beat flash by this margin on every sentiment and intent measure while it costs more */
export { PRO_MARGIN } from './pricing-check.js';
