import { DISCIPLINES, type Discipline } from '../../contract/catalogue-schemas'
import type { Suggestion } from './suggestion-index'
import { foldWord, type Vocabulary, vocabularyOf, wordsOf } from './typo-tolerance'

/**
 * A language's words for the categories (`search.discipline_words`: "road: corsa, strada; kids: bambini…"), folded:
 * word → category.
 */
export function disciplineWordsOf(text: string): ReadonlyMap<string, Discipline> {
  const words = new Map<string, Discipline>()
  for (const part of text.split(';')) {
    const [key, list] = part.split(':')
    const discipline = DISCIPLINES.find((known) => known === key?.trim())
    if (!discipline || !list) continue
    for (const word of list.split(',')) if (word.trim()) words.set(foldWord(word.trim()), discipline)
  }
  return words
}

/** The categories a query names in the market's language ("bici da corsa" → road). */
export const disciplinesIn = (query: string, words: ReadonlyMap<string, Discipline>): Set<Discipline> =>
  new Set(wordsOf(query).flatMap((word) => words.get(word) ?? []))

/** The terms the search corrects a visitor's words to: the index's titles and towns, and the category words. */
export const searchVocabulary = (index: Suggestion[], words: ReadonlyMap<string, Discipline>): Vocabulary =>
  vocabularyOf([...index.flatMap((entry) => [entry.title, entry.detail ?? '']), ...words.keys()])

/** A result as the ranking reads it. */
export type Ranked = { kind: string; slug: string; title: string; excerpt?: string | null }

/**
 * The results in the order that helps (docs/decisions/061): first `named`, the market's products of the categories
 * the query names (read from the listing, even where the full text missed them: "bici da corsa" finds the road bikes
 * before a children's bike whose brakes have "corsa ridotta"), then results whose title holds a word of the query,
 * then the rest as the search ranked them.
 *
 * @example
 * rankedResults(found, 'bici da corsa', roadBikes)
 */
export function rankedResults<R extends Ranked>(results: R[], query: string, named: R[]): R[] {
  const firstSlugs = new Set(named.map((result) => `${result.kind}:${result.slug}`))
  const queryWords = new Set(wordsOf(query).filter((word) => word.length > 2))
  const inTitle = (result: R) => wordsOf(result.title).some((word) => queryWords.has(word))
  const rest = results.filter((result) => !firstSlugs.has(`${result.kind}:${result.slug}`))
  return [...named, ...rest.filter(inTitle), ...rest.filter((result) => !inTitle(result))]
}
