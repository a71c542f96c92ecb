import type { Direction } from '../i18n/direction'
import type { Run } from '../catalogue/spec-values'

/**
 * Runs of a written value (src/catalogue/spec-values.ts) as a page shows them: on a right-to-left page each
 * left-to-right run ("700 × 28c", "7.4 kg", "T800") is a `<bdi dir="ltr">`, so Hebrew or Arabic around it never
 * reorders its characters; a left-to-right page needs no isolation and gets plain text.
 */
export function Runs({ runs, dir }: { runs: Run[]; dir: Direction }) {
  if (dir !== 'rtl') return <>{runs.map((run) => run.text).join('')}</>
  // Neighbouring runs of text become one string (React would put a comment between two).
  const pieces: Array<string | { ltr: string }> = []
  for (const run of runs) {
    const last = pieces.at(-1)
    if (run.ltr) pieces.push({ ltr: run.text })
    else if (typeof last === 'string') pieces[pieces.length - 1] = last + run.text
    else pieces.push(run.text)
  }
  return (
    <>
      {pieces.map((piece, index) =>
        typeof piece === 'string' ? (
          piece
        ) : (
          <bdi key={index} dir="ltr">
            {piece.ltr}
          </bdi>
        ),
      )}
    </>
  )
}

/** One left-to-right value (a number with its unit) in a page of either direction. */
export function LtrValue({ text, dir }: { text: string; dir: Direction }) {
  return <Runs runs={[{ text, ltr: true }]} dir={dir} />
}
