import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import english from '../../src/i18n/en.json'
import italian from '../../demo/messages/it.json'
import hebrew from '../../demo/messages/he.json'
import { api } from '../../reference-api'
import { productAnswer, type Product } from '../../contract/catalogue-schemas'
import { visit } from '../fixtures/worker'

const NBSP = '\u00a0'
/** The page's specification values, `dt` → the `dd`'s markup. */
const specsOf = (html: string, labels: Record<string, string>) => {
  const list = /<dl class="specs">([\s\S]*?)<\/dl>/.exec(html)?.[1] ?? ''
  const byLabel = Object.fromEntries(
    [...list.matchAll(/<dt>([^<]*)<\/dt><dd>([\s\S]*?)<\/dd>/g)].map(([, dt, dd]) => [dt, dd]),
  )
  return (key: string) => byLabel[labels[key] ?? key]
}
const sizeGuideOf = (html: string) =>
  /<details class="size-guide" id="size-guide">[\s\S]*?<\/details>/.exec(html)?.[0] ?? ''
const cellsOf = (html: string, tag: 'th' | 'td') =>
  [...html.matchAll(new RegExp(`<${tag}(?:\\s[^>]*)?>([\\s\\S]*?)</${tag}>`, 'g'))].map(([, cell]) => cell)

/** Calls the embedded API in-process for a market, as the Worker does. */
async function product(slug: string, country: string, locale: string): Promise<Product> {
  const request = new Request(`http://embedded.invalid/api/front/products/${slug}`, {
    headers: { 'X-Tenant': country, 'X-Locale': locale },
  })
  const response = await api.fetch(request as Parameters<typeof api.fetch>[0], env)
  expect(response.status).toBe(200)
  return productAnswer.parse(await response.json()).data
}

describe('specification values on product pages', () => {
  it('are in Italian with Italian numbers on /it-it, no English left and nothing to isolate', async () => {
    const { status, text } = await visit('/it-it/products/aurora-strada-9')
    expect(status).toBe(200)
    const spec = specsOf(text, italian.spec)
    expect(spec('frame')).toBe(`Carbonio, fibra T800, 1050${NBSP}g`)
    // Codes and quantities never break inside: their spaces are no-break spaces.
    expect(spec('brakes')).toBe(`A disco idraulici, 160/140${NBSP}mm`)
    expect(spec('wheels')).toBe(`Aurora${NBSP}Corsa${NBSP}45, carbonio, predisposte tubeless`)
    expect(spec('weight')).toBe(`7,4${NBSP}kg (taglia M)`)
    const specs = /<dl class="specs">[\s\S]*?<\/dl>/.exec(text)?.[0] ?? ''
    expect(specs).not.toMatch(/Carbon,|Hydraulic|fibre|size M|7\.4/)
    expect(specs).not.toContain('<bdi')
  })

  it('write German decimals and ranges on /de-de', async () => {
    const { text } = await visit('/de-de/products/aurora-e-strada')
    const spec = specsOf(text, (await import('../../demo/messages/de.json')).spec)
    expect(spec('charger')).toBe(`2${NBSP}A, vollständig geladen in 3,5${NBSP}h`)
    expect(spec('range')).toBe(`Bis zu 110${NBSP}km`)
  })

  it('isolate every left-to-right run in <bdi dir="ltr"> on /il-he, so Hebrew never reorders "700 × 28c" or "7.4 kg"', async () => {
    const { status, text } = await visit('/il-he/products/aurora-strada-9')
    expect(status).toBe(200)
    const spec = specsOf(text, hebrew.spec)
    expect(spec('frame')).toBe(`קרבון, סיבי <bdi dir="ltr">T800</bdi>, <bdi dir="ltr">1,050${NBSP}g</bdi>`)
    expect(spec('tyres')).toBe(`<bdi dir="ltr">700${NBSP}×${NBSP}28c</bdi>, ללא פנימית`)
    expect(spec('gearing')).toBe(`<bdi dir="ltr">2${NBSP}×${NBSP}12</bdi>`)
    expect(spec('weight')).toBe(`<bdi dir="ltr">7.4${NBSP}kg</bdi> (מידה <bdi dir="ltr">M</bdi>)`)
  })

  it("write an article's one size in the page's language, never the catalogue's English (/il-he, /it-it)", async () => {
    for (const [market, texts] of [
      ['il-he', hebrew],
      ['it-it', italian],
    ] as const) {
      const { status, text } = await visit(`/${market}/products/aurora-pompa-mini`)
      expect(status).toBe(200)
      expect(text).toContain(texts.order.one_size)
      expect(text).not.toContain('One size')
    }
  })

  it('join an Arabic list with the Arabic comma on /ae-ar', async () => {
    const { text } = await visit('/ae-ar/products/aurora-strada-9')
    const spec = specsOf(text, (await import('../../demo/messages/ar.json')).spec)
    expect(spec('tyres')).toBe(`<bdi dir="ltr">700${NBSP}×${NBSP}28c</bdi>، بدون أنبوب داخلي`)
  })
})

describe('the size guide', () => {
  it("offers a native disclosure on /it-it with the product's sizes, their rider heights and the geometry in Italian numbers", async () => {
    const { text } = await visit('/it-it/products/aurora-strada-9')
    const guide = sizeGuideOf(text)
    expect(guide).toContain(`<summary>${italian.size_guide.open}</summary>`)
    const [heights, geometry] = guide.split('<div class="table-scroll"')
    expect(cellsOf(heights ?? '', 'th').slice(2)).toEqual(['XS', 'S', 'M', 'L', 'XL'])
    expect(cellsOf(heights ?? '', 'td')[2]).toBe(`168–178${NBSP}cm`)
    // The geometry scrolls in its own box, named by its heading and reachable from the keyboard.
    expect(geometry).toMatch(/^ role="group" tabindex="0" aria-labelledby="size-guide-geometry">/)
    expect(cellsOf(geometry ?? '', 'th').slice(0, 6)).toEqual([italian.size_guide.measure, 'XS', 'S', 'M', 'L', 'XL'])
    const row = (label: string) =>
      new RegExp(`<th scope="row">${label}(?: <span class="unit">mm</span>)?</th>((?:<td[^>]*>[^<]*</td>)+)`).exec(
        geometry ?? '',
      )?.[1] ?? ''
    // Lengths in millimetres, the unit once beside the measurement's name; angles with their sign.
    expect(geometry).toContain(`<th scope="row">${italian.size_guide.stack} <span class="unit">mm</span></th>`)
    expect(cellsOf(row(italian.size_guide.stack), 'td')).toEqual(['505', '525', '548', '570', '593'])
    expect(cellsOf(row(italian.size_guide.wheelbase), 'td')[3]).toBe('1003')
    expect(cellsOf(row(italian.size_guide.head_angle), 'td')).toEqual(['71,0°', '72,0°', '72,5°', '73,0°', '73,0°'])
  })

  it('lists only the sizes the product comes in (the aluminium gravel bike starts at S)', async () => {
    const { text } = await visit('/it-it/products/aurora-sterrato-al')
    const heights = sizeGuideOf(text).split('<div class="table-scroll"')[0] ?? ''
    expect(cellsOf(heights, 'th').slice(2)).toEqual(['S', 'M', 'L', 'XL'])
  })

  it('gives rider heights in feet and inches, with centimetres, in the United States', async () => {
    const { text } = await visit('/us-en/products/aurora-strada-9')
    const guide = sizeGuideOf(text)
    expect(guide).toContain(`<summary>${english.size_guide.open}</summary>`)
    expect(guide).toContain(`5′${NBSP}6″–5′${NBSP}10″ (168–178${NBSP}cm)`)
    expect(guide).toContain('<td class="number">1,003</td>')
  })

  it('isolates every size and measurement on /il-he', async () => {
    const { text } = await visit('/il-he/products/aurora-strada-9')
    const guide = sizeGuideOf(text)
    expect(guide).toContain(`<summary>${hebrew.size_guide.open}</summary>`)
    expect(guide).toContain(`<td><bdi dir="ltr">168–178${NBSP}cm</bdi></td>`)
    expect(guide).toContain('<td class="number"><bdi dir="ltr">1,003</bdi></td>')
    expect(guide).toContain(`${hebrew.size_guide.stack} <span class="unit"><bdi dir="ltr">mm</bdi></span></th>`)
    expect(guide).toContain('<td class="number"><bdi dir="ltr">72.5°</bdi></td>')
    expect(guide).toContain('<th scope="row"><bdi dir="ltr">XS</bdi></th>')
  })

  it('is not offered for an accessory or a one-size bike', async () => {
    for (const slug of ['aurora-pompa-mini', 'aurora-e-cargo']) {
      const { status, text } = await visit(`/it-it/products/${slug}`)
      expect(status).toBe(200)
      expect(text).not.toContain('id="size-guide"')
    }
  })
})

describe('GET api/front/products/{slug}: specifications and size guide', () => {
  it("answers the specifications in the caller's locale as parts: text translated, codes and quantities as they are", async () => {
    const italianProduct = await product('aurora-strada-9', 'it', 'it')
    expect(italianProduct.specs[0]).toEqual({
      key: 'frame',
      parts: [
        { kind: 'text', text: 'Carbonio, fibra ' },
        { kind: 'code', text: 'T800' },
        { kind: 'text', text: ', ' },
        { kind: 'quantity', value: 1050, unit: 'g' },
      ],
    })
    const englishProduct = await product('aurora-strada-9', 'int', 'en')
    expect(englishProduct.specs.find((spec) => spec.key === 'brakes')?.parts[0]).toEqual({
      kind: 'text',
      text: 'Hydraulic disc, ',
    })
  })

  it("answers a bicycle's size guide in cm, mm and degrees, and none for an accessory", async () => {
    const bike = await product('aurora-strada-9', 'it', 'it')
    expect(bike.size_guide?.map((row) => row.size)).toEqual(['XS', 'S', 'M', 'L', 'XL'])
    expect(bike.size_guide?.[2]).toEqual({
      size: 'M',
      rider_height_cm: { min: 168, max: 178 },
      geometry: {
        stack: 548,
        reach: 386,
        seat_tube: 530,
        top_tube: 545,
        head_angle: 72.5,
        seat_angle: 73.5,
        chainstay: 408,
        wheelbase: 990,
      },
    })
    expect((await product('aurora-pompa-mini', 'it', 'it')).size_guide).toBeNull()
  })

  it("reads a brand API's older specification (one `value` string) as one text, and no size guide as none", () => {
    const older = productAnswer.parse({
      data: {
        id: 1,
        slug: 'a',
        name: 'A',
        type: { id: 1, slug: 'bikes', name: 'Bikes' },
        price: 1,
        gallery: [],
        variants: [],
        specs: [{ key: 'frame', value: 'Carbonio' }],
      },
    }).data
    expect(older.specs).toEqual([{ key: 'frame', parts: [{ kind: 'text', text: 'Carbonio' }] }])
    expect(older.size_guide).toBeNull()
  })
})
