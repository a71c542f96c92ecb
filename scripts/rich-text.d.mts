/** An article's blocks (heading, paragraph, list) as rich text. */
export function richText(
  blocks: ({ type: 'heading' | 'paragraph'; text: string } | { type: 'list'; items: string[] })[],
): string
