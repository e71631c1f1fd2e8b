// Placeholder until the topic classifier lands: returns no topics.
export const TAXONOMY: readonly string[] = [];
export function classifyTopics(_text: string, _opts: { categories?: string[]; pro?: boolean } = {}): string[] {
  return [];
}
