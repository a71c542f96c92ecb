import { describe, expect, it } from 'vitest'
import type { Product } from '../../contract/catalogue-schemas'
import type { Market } from '../../src/market/market'
import { jsonLd, productPageData } from '../../src/seo/structured-data'

const market = { segment: 'it-it', tag: 'it-IT', site: { currency: 'EUR' } } as unknown as Market
const product = (name: string) =>
  ({
    slug: 'aurora-strada-9',
    name,
    tagline: 'Leggera',
    description: '',
    image: '/images/strada.jpg',
    gallery: [],
    type: { slug: 'road', name: 'Strada' },
    price: 349900,
    variants: [],
  }) as unknown as Product

describe("a product page's structured data", () => {
  it('is made once per product lookup and what else it says, its JSON-LD text with it', () => {
    const strada = product('Strada 9 </script>')
    const first = productPageData('https://www.example', market, strada, 'Aurora Cycles', 'Home')
    expect(productPageData('https://www.example', market, strada, 'Aurora Cycles', 'Home')).toBe(first)
    expect(first.map((thing) => thing['@type'])).toEqual(['Product', 'BreadcrumbList'])
    expect(jsonLd(first)).toBe(jsonLd(first))
    expect(jsonLd(first)).toContain('Strada 9 \\u003c/script\\u003e')
    // Another home's name, or another lookup of the product (the memo answered a new object): made again.
    const other = productPageData('https://www.example', market, strada, 'Aurora Cycles', 'Inizio')
    expect(other).not.toBe(first)
    expect(JSON.stringify(other)).toContain('"name":"Inizio"')
    const again = productPageData('https://www.example', market, product('Strada 9'), 'Aurora Cycles', 'Inizio')
    expect(again).not.toBe(other)
    expect(jsonLd(again)).toContain('"name":"Strada 9"')
  })
})
