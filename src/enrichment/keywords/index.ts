// Placeholder until the keyword extractor lands: returns no keywords.
export function extractKeywords(_text: string, _opts: { max?: number; pro?: boolean } = {}): string[] {
  return [];
}
