import type { ContentBlock } from '../../contract/schemas'

/** Rich text from the content API as elements: blocks are text, never HTML, so nothing needs sanitising. */
export function ContentBlocks({ blocks }: { blocks: ContentBlock[] }) {
  return (
    <>
      {blocks.map((block, index) => {
        switch (block.type) {
          case 'heading':
            return <h2 key={index}>{block.text}</h2>
          case 'paragraph':
            return <p key={index}>{block.text}</p>
          case 'list':
            return (
              <ul key={index}>
                {block.items.map((item, i) => (
                  <li key={i}>{item}</li>
                ))}
              </ul>
            )
          default:
            return null
        }
      })}
    </>
  )
}
