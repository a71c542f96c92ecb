/**
 * Typo tolerance over a market's own words (docs/decisions/061): a visitor's word is read as the nearest term of the
 * market (a product's name, a category in the market's language, a dealer's town) within a few edits. One module for
 * the site search and the dealer locator; it knows no storage, so a search on D1 FTS5 can call it the same way.
 */

/** Lower case without diacritics: "Città" and "citta", "Zürich" and "zurich" compare equal. */
export const foldWord = (text: string): string => text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase()

/** A text's words, folded. */
export const wordsOf = (text: string): string[] => foldWord(text).match(/[\p{L}\p{N}]+/gu) ?? []

/** How many edits a word of this length may carry: none up to 3 letters, one up to 5, two beyond. */
export const allowedEdits = (word: string): number => (word.length <= 3 ? 0 : word.length <= 5 ? 1 : 2)

/**
 * Edits (insert, delete, replace, swap two neighbours) from one word to another, or `max + 1` as soon as it is
 * clear that there are more than `max`.
 */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1
  let before: number[] = []
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const row = [i]
    let best = i
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let value = Math.min((previous[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        value = Math.min(value, (before[j - 2] ?? 0) + 1)
      row.push(value)
      best = Math.min(best, value)
    }
    if (best > max) return max + 1
    before = previous
    previous = row
  }
  return previous[b.length] ?? max + 1
}

/** The terms a market's visitors may mean: folded term → the term as the market writes it. */
export type Vocabulary = ReadonlyMap<string, string>

/** A vocabulary from the texts of a market (names, towns, categories): each word, and each whole text, as first written. */
export function vocabularyOf(texts: Iterable<string>): Vocabulary {
  const terms = new Map<string, string>()
  for (const text of texts) {
    const whole = text.trim()
    const add = (term: string) => terms.has(foldWord(term)) || terms.set(foldWord(term), term)
    if (whole) add(whole)
    for (const word of whole.match(/[\p{L}\p{N}]+/gu) ?? []) if (word.length > 2) add(word)
  }
  return terms
}

/**
 * The market's term a visitor's word (or words) means: itself when the vocabulary has it, else the nearest within
 * `allowedEdits`, the shorter distance first, then the term that shares the first letter; null when none is near.
 *
 * @example
 * closestTerm('Mlano', vocabularyOf(['Milano', 'Bergamo'])) // 'Milano'
 */
export function closestTerm(typed: string, vocabulary: Vocabulary): string | null {
  const word = foldWord(typed.trim())
  if (!word) return null
  const exact = vocabulary.get(word)
  if (exact !== undefined) return exact
  const max = allowedEdits(word)
  let best: { term: string; distance: number; sameStart: boolean } | null = null
  for (const [folded, term] of vocabulary) {
    const distance = editDistance(word, folded, max)
    if (distance > max) continue
    const sameStart = folded[0] === word[0]
    if (!best || distance < best.distance || (distance === best.distance && sameStart && !best.sameStart)) {
      best = { term, distance, sameStart }
    }
  }
  return best?.term ?? null
}

/**
 * A query with each word the vocabulary does not know replaced by the nearest term it knows; `changed` when any
 * word was. Words of three letters or fewer ("da", "the") are kept as typed.
 *
 * @example
 * correctedQuery('stradda 9', vocabulary) // { text: 'Strada 9', changed: true }
 */
export function correctedQuery(query: string, vocabulary: Vocabulary): { text: string; changed: boolean } {
  let changed = false
  const text = query.replace(/[\p{L}\p{N}]+/gu, (word) => {
    if (allowedEdits(word) === 0 || vocabulary.has(foldWord(word))) return word
    const term = closestTerm(word, vocabulary)
    if (!term) return word
    changed = true
    return term
  })
  return { text, changed }
}
