// What the LLM backend sends: the system prompt and the JSON schema of the reply. Kept apart from the
// transport so that both can be read (and reviewed) as the contract with the model.
import { type EnrichmentType, INTENTS, SENTIMENTS } from '../../contract/items.js';

export function systemPrompt(types: EnrichmentType[], topics: readonly string[], custom: boolean): string {
  const lines = [
    'You annotate short social-media texts for analysts. Reply with JSON only, matching the given schema.',
    'Return one result per input item, with the same "index" as the item.',
  ];
  if (types.includes('sentiment')) {
    lines.push(
      'sentiment: "positive", "negative" or "neutral"; sentiment_score: a number from -1 (most negative) to 1 (most positive).',
    );
  }
  if (types.includes('topics')) {
    lines.push(
      custom
        ? `topics: 0 to 3 labels, best first, chosen only from this list (copy them exactly): ${JSON.stringify(topics)}. Use [] when none fits.`
        : `topics: 1 to 3 labels, best first, from this list: ${JSON.stringify(topics)}. Use [] only when the text has no topic at all.`,
    );
  }
  if (types.includes('intent')) {
    lines.push(
      'intent: one of "purchase_intent", "complaint", "question", "praise", "suggestion", "engagement" ("engagement" is ordinary social interaction that is none of the others).',
    );
  }
  if (types.includes('keywords')) {
    lines.push(
      'keywords: up to 10 important lowercase words or short phrases from the text, most important first.',
    );
  }
  return lines.join('\n');
}

export function responseSchema(types: EnrichmentType[], topics: readonly string[]): Record<string, unknown> {
  const props: Record<string, unknown> = { index: { type: 'integer' } };
  if (types.includes('sentiment')) {
    props.sentiment = { type: 'string', enum: [...SENTIMENTS] };
    props.sentiment_score = { type: 'number' };
  }
  if (types.includes('topics'))
    props.topics = { type: 'array', items: { type: 'string', enum: [...topics] }, maxItems: 3 };
  if (types.includes('intent')) props.intent = { type: 'string', enum: [...INTENTS] };
  if (types.includes('keywords')) props.keywords = { type: 'array', items: { type: 'string' }, maxItems: 10 };
  return {
    type: 'object',
    additionalProperties: false,
    required: ['results'],
    properties: {
      results: {
        type: 'array',
        items: {
          type: 'object',
          additionalProperties: false,
          required: Object.keys(props),
          properties: props,
        },
      },
    },
  };
}
