import { describe, expect, it } from 'vitest'
import type { Market } from '../../src/market/market'
import { homeData, jsonLd } from '../../src/seo/structured-data'

const market = (segment: string, tag: string) => ({ segment, tag }) as unknown as Market
const itIt = market('it-it', 'it-IT')

describe("a market home's structured data", () => {
  it('is made once per isolate and what it says, its JSON-LD text with it', () => {
    const first = homeData('https://www.example', itIt, 'Aurora Cycles', true)
    expect(homeData('https://www.example', market('it-it', 'it-IT'), 'Aurora Cycles', true)).toBe(first)
    expect(jsonLd(first)).toBe(jsonLd(homeData('https://www.example', itIt, 'Aurora Cycles', true)))
    expect(JSON.stringify(first)).toContain('"url":"https://www.example/it-it","inLanguage":"it-IT"')
    // Another market, language, origin, brand name or search switch: its own things, never the first's.
    const others = [
      homeData('https://www.example', market('ch-it', 'it-CH'), 'Aurora Cycles', true),
      homeData('https://www.example', market('it-it', 'en'), 'Aurora Cycles', true),
      homeData('https://shop.example', itIt, 'Aurora Cycles', true),
      homeData('https://www.example', itIt, 'Aurora', true),
      homeData('https://www.example', itIt, 'Aurora Cycles', false),
    ]
    for (const other of others) expect(other).not.toBe(first)
    const [chIt, english, shop, shortName, noSearch] = others.map((things) => JSON.stringify(things))
    expect(chIt).toContain('"url":"https://www.example/ch-it","inLanguage":"it-CH"')
    expect(english).toContain('"inLanguage":"en"')
    expect(shop).toContain('"@id":"https://shop.example/#organization"')
    expect(shortName).toContain('"name":"Aurora"')
    expect(noSearch).not.toContain('SearchAction')
    expect(JSON.stringify(first)).toContain('SearchAction')
  })
})
