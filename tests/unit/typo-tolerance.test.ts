import { describe, expect, it } from 'vitest'
import { disciplineWordsOf, disciplinesIn, rankedResults } from '../../src/search/ranking'
import type { Suggestion } from '../../src/search/suggestion-index'
import { closestTerm, correctedQuery, editDistance, vocabularyOf } from '../../src/search/typo-tolerance'

const towns = vocabularyOf(['Milano', 'Bergamo', 'Bologna', 'Torino', 'Tel Aviv-Yafo'])

describe('typo tolerance (docs/decisions/061)', () => {
  it('counts an insertion, a deletion, a replacement and a swap as one edit each', () => {
    expect(editDistance('mlano', 'milano', 2)).toBe(1)
    expect(editDistance('stradda', 'strada', 2)).toBe(1)
    expect(editDistance('mialno', 'milano', 2)).toBe(1)
    expect(editDistance('bergano', 'bergamo', 2)).toBe(1)
    expect(editDistance('roma', 'milano', 2)).toBe(3)
  })

  it('reads "Mlano" as Milano and "bergamo" as Bergamo, and finds nothing near "Xyzzyq" or a short word', () => {
    expect(closestTerm('Mlano', towns)).toBe('Milano')
    expect(closestTerm('  bergamo ', towns)).toBe('Bergamo')
    expect(closestTerm('Torinno', towns)).toBe('Torino')
    expect(closestTerm('Xyzzyq', towns)).toBeNull()
    expect(closestTerm('Bolo', towns)).toBeNull()
  })

  it('corrects only the words the market does not know, keeping short words as typed', () => {
    const vocabulary = vocabularyOf(['Aurora Strada 9', 'Aurora Sterrato GR', 'Città'])
    expect(correctedQuery('stradda 9', vocabulary)).toEqual({ text: 'Strada 9', changed: true })
    expect(correctedQuery('bici da strada', vocabulary)).toEqual({ text: 'bici da strada', changed: false })
    expect(correctedQuery('citta', vocabulary)).toEqual({ text: 'citta', changed: false })
  })
})

describe('the ranking', () => {
  const words = disciplineWordsOf('road: corsa, strada; kids: bambini, bambino; city: città')
  const product = (slug: string, discipline: Suggestion['discipline']): Suggestion => ({
    kind: 'product',
    slug,
    title: slug,
    url: `/it-it/products/${slug}`,
    image: null,
    detail: null,
    discipline,
  })
  const index = [
    product('aurora-strada-9', 'road'),
    product('aurora-piccolo-20', 'kids'),
    product('aurora-e-strada', 'road'),
  ]
  const asResult = (entry: Suggestion) => ({ kind: entry.kind, slug: entry.slug, title: entry.title, excerpt: '' })

  it("reads the categories a query names in the market's language", () => {
    expect([...disciplinesIn('bici da corsa', words)]).toEqual(['road'])
    expect([...disciplinesIn('Città', words)]).toEqual(['city'])
    expect(disciplinesIn('casco', words).size).toBe(0)
  })

  it('puts the products of the named category first, then title matches, then the rest as found', () => {
    const found = [
      { kind: 'product', slug: 'aurora-e-strada', title: 'Aurora e-Strada', excerpt: 'bici da corsa' },
      { kind: 'product', slug: 'aurora-piccolo-20', title: 'Aurora Piccolo 20', excerpt: 'a corsa ridotta' },
      { kind: 'news', slug: 'corsa-in-salita', title: 'Una corsa in salita', excerpt: '' },
    ]
    const named = index.filter((entry) => entry.discipline === 'road').map(asResult)
    const ranked = rankedResults(found, 'bici da corsa', named).map((result) => result.slug)
    expect(ranked).toEqual(['aurora-strada-9', 'aurora-e-strada', 'corsa-in-salita', 'aurora-piccolo-20'])
  })
})
