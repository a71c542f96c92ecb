import type { Messages } from '../../contract/schemas'
import type { BrandData } from './read'
import type { CatalogueRecords, DealerRecord, MarketRecord, NewsRecord, PageRecords } from './records'
import { richText } from '../rich-text.mjs'
import { idOf, upsert } from './upsert'

/**
 * The brand's checked data as SQL statements for D1, in the order of the foreign keys: every row an upsert by its
 * natural key (a market's slug, a product's slug, a SKU, a page key, an article's slug, locale and scope), so a
 * second run writes nothing. Rows the files no longer name are kept (docs/decisions/054).
 *
 * @example
 * const read = readBrandData(files)
 * if (read.ok) await db.batch(brandDataStatements(read.data).map((sql) => db.prepare(sql)))
 */
export function brandDataStatements(data: BrandData): string[] {
  return [
    ...data.markets.flatMap(marketStatements),
    ...Object.entries(data.translations).flatMap(([locale, messages]) => translationStatements(locale, messages)),
    ...(data.catalogue ? catalogueStatements(data.catalogue) : []),
    ...pageStatements(data.pages),
    ...data.news.map(newsStatement),
    ...data.dealers.map(dealerStatement),
  ]
}

const json = (value: unknown) => JSON.stringify(value)

function marketStatements(market: MarketRecord, position: number): string[] {
  const site = idOf('sites', 'slug', market.slug)
  return [
    upsert(
      'sites',
      {
        slug: market.slug,
        name: market.country.name,
        country_code: market.country.country_code,
        region: market.country.region,
        currency: market.currency,
        currency_token: market.default_currency_token,
        currency_place: market.default_currency_place,
        settings: json({
          ...market.settings,
          ...(market.form_recipients ? { form_recipients: market.form_recipients } : {}),
        }),
        page_links: json(market.pageLinks),
        centre_lat: market.centre?.lat ?? null,
        centre_lng: market.centre?.lng ?? null,
        position: position + 1,
      },
      ['slug'],
    ),
    ...market.locales.map((locale, index) =>
      upsert(
        'site_locales',
        {
          site_id: site,
          locale,
          url: market.urls.find((url) => url.locale_code === locale)?.url ?? `/${market.slug}-${locale}`,
          position: index,
          page_links: json(market.pageLinksByLocale[locale] ?? {}),
        },
        ['site_id', 'locale'],
      ),
    ),
  ]
}

/** A locale's texts as rows of dotted keys (`footer.market`), for every market (`*`). */
function translationStatements(locale: string, messages: Messages, prefix = ''): string[] {
  return Object.entries(messages).flatMap(([key, value]) =>
    typeof value === 'string'
      ? [upsert('translations', { scope: '*', locale, key: prefix + key, value }, ['scope', 'locale', 'key'])]
      : translationStatements(locale, value, `${prefix}${key}.`),
  )
}

function catalogueStatements({ types, products }: CatalogueRecords): string[] {
  const statements = types.flatMap((type, position) => [
    upsert(
      'product_types',
      { slug: type.slug, position, registrable: type.registrable, warranty_years: type.warranty_years },
      ['slug'],
    ),
    ...Object.entries(type.names).map(([locale, name]) =>
      upsert('product_type_names', { type_id: idOf('product_types', 'slug', type.slug), locale, name }, [
        'type_id',
        'locale',
      ]),
    ),
  ])
  products.forEach((product, position) => {
    const id = idOf('products', 'slug', product.slug)
    statements.push(
      upsert(
        'products',
        {
          slug: product.slug,
          type_id: idOf('product_types', 'slug', product.type),
          image: product.image ?? null,
          gallery: json(product.gallery.length || !product.image ? product.gallery : [product.image]),
          featured: product.featured,
          position,
          discipline: product.discipline ?? null,
          frame_material: product.frame_material ?? null,
          electric: product.e_bike,
          released_on: product.released_on ?? null,
          size_guide: product.size_guide ? json(product.size_guide) : null,
        },
        ['slug'],
        'updated_at',
      ),
      ...Object.entries(product.names).map(([locale, words]) =>
        upsert('product_names', { product_id: id, locale, ...words, specs: json(words.specs) }, [
          'product_id',
          'locale',
        ]),
      ),
      ...Object.entries(product.prices).map(([site, amount]) =>
        upsert('product_prices', { product_id: id, site, amount }, ['product_id', 'site']),
      ),
    )
    product.variants.forEach(({ prices, not_sold_in: notSoldIn, ...variant }, index) => {
      statements.push(upsert('product_variants', { ...variant, product_id: id, position: index }, ['sku']))
      for (const [site, amount] of Object.entries(product.prices).filter(([site]) => !notSoldIn.includes(site)))
        statements.push(
          upsert('product_variant_prices', { sku: variant.sku, site, amount: prices[site] ?? amount }, ['sku', 'site']),
        )
    })
  })
  return statements
}

function pageStatements(pages: PageRecords): string[] {
  return Object.entries(pages).flatMap(([key, contents]) => {
    const page = idOf('pages', 'key', key)
    return [
      upsert('pages', { key }, ['key']),
      ...Object.entries(contents).flatMap(([locale, { seo, ...content }]) => [
        upsert('page_contents', { page_id: page, locale, ...content, blocks: json(content.blocks) }, [
          'page_id',
          'locale',
        ]),
        ...(seo
          ? [
              upsert(
                'seo_records',
                {
                  model_type: 'Page',
                  model_id: page,
                  locale,
                  meta_name: seo.meta_name ?? content.title,
                  meta_description: seo.meta_description ?? null,
                  meta_keywords: seo.meta_keywords ?? null,
                  page_title: seo.page_title ?? null,
                  og_title: seo.og_title ?? null,
                  og_description: seo.og_description ?? null,
                  og_image: seo.og_image ?? null,
                  og_image_alt: seo.og_image_alt ?? null,
                },
                ['model_type', 'model_id', 'locale'],
              ),
            ]
          : []),
      ]),
    ]
  })
}

function newsStatement(article: NewsRecord): string {
  return upsert(
    'news',
    {
      slug: article.slug,
      locale: article.locale,
      scope: article.scope,
      story: article.story ?? null,
      title: article.title,
      excerpt: article.excerpt,
      blocks: json(article.blocks),
      body: richText(article.blocks),
      image: article.image ?? null,
      published_at: article.published_at,
      products: json(article.products),
    },
    ['slug', 'locale', 'scope'],
    'updated_at',
  )
}

function dealerStatement({ services, hours, translations, ...dealer }: DealerRecord): string {
  return upsert(
    'dealers',
    {
      ...dealer,
      postal_code: dealer.postal_code ?? null,
      region: dealer.region ?? null,
      phone: dealer.phone ?? null,
      email: dealer.email ?? null,
      website: dealer.website ?? null,
      ...services,
      hours: json(hours),
      translations: json(translations),
    },
    ['slug'],
    'updated_at',
  )
}
