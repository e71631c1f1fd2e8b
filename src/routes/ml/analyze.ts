import { AnalyzeBody } from '../../contract/endpoints.js';
import { analyzeTexts } from '../../services/analyze.js';
import { defineRoute } from '../define.js';

export default defineRoute('ml.analyze', AnalyzeBody, (s, ctx, body) => analyzeTexts(s, ctx, body));
