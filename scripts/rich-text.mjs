// Content blocks as the small HTML subset the API serves as rich text: shared by the demo seed and the brand's data
// loader (scripts/brand-data/), so both store an article's body alike.

const escapeHtml = (text) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

/** An article's blocks (heading, paragraph, list) as rich text. */
export function richText(blocks) {
  return blocks
    .map((block) => {
      if (block.type === 'heading') return `<h2>${escapeHtml(block.text)}</h2>`
      if (block.type === 'list') return `<ul>${block.items.map((item) => `<li>${escapeHtml(item)}</li>`).join('')}</ul>`
      return `<p>${escapeHtml(block.text)}</p>`
    })
    .join('\n')
}
