import { minorUnitDigits } from '../i18n/formats'
import type { Market } from '../market/market'
import type { Dealer, NewsArticle, Product } from '../../contract/catalogue-schemas'

/**
 * schema.org objects for a page's JSON-LD (PRODUCT.md §5 SEO), absolute URLs on the public origin. Pages put them in
 * their head (`HeadProps.structuredData`); a page that is not indexed never carries any (page-head.tsx).
 */
export type Thing = { '@type': string; [property: string]: unknown }

const SCHEMA = 'https://schema.org'

/** The brand: the publisher of articles and the parent of every store. */
export function organization(origin: string, name: string): Thing {
  return {
    '@type': 'Organization',
    '@id': `${origin}/#organization`,
    name,
    url: `${origin}/`,
    logo: `${origin}/logo.svg`,
  }
}

/**
 * A market home's `Organization` and `WebSite`, with a `SearchAction` where the market's search is on: made once per
 * isolate and what they say (the origin, the market's segment and language, the brand, search on or off), so its
 * JSON-LD text is written once too (decision 087). Callers must not change it.
 */
export function homeData(origin: string, market: Market, brand: string, search: boolean): Thing[] {
  const key = [origin, market.segment, market.tag, brand, search].join('\u0001')
  let things = homeThings.get(key)
  if (things === undefined) {
    things = homeThingsOf(origin, market, brand, search)
    if (homeThings.size >= HOME_THINGS_LIMIT) homeThings.delete(homeThings.keys().next().value as string)
    homeThings.set(key, things)
  }
  return things
}

/** The homes' things made in this isolate, by what they say; at most one per market, language and origin. */
const homeThings = new Map<string, Thing[]>()
const HOME_THINGS_LIMIT = 200

function homeThingsOf(origin: string, market: Market, brand: string, search: boolean): Thing[] {
  const home = `${origin}/${market.segment}`
  const website: Thing = {
    '@type': 'WebSite',
    '@id': `${home}#website`,
    name: brand,
    url: home,
    inLanguage: market.tag,
    publisher: { '@id': `${origin}/#organization` },
  }
  if (search) {
    website.potentialAction = {
      '@type': 'SearchAction',
      target: { '@type': 'EntryPoint', urlTemplate: `${home}/search/all?q={search_term_string}` },
      'query-input': 'required name=search_term_string',
    }
  }
  return [organization(origin, brand), website]
}

/** A price in minor units as schema.org writes it: a decimal number with the currency's digits (`1299.00`). */
export function decimalPrice(minor: number, currency: string): string {
  const digits = minorUnitDigits(currency)
  return (minor / 10 ** digits).toFixed(digits)
}

const AVAILABILITY: Record<Product['variants'][number]['availability'], string> = {
  in_stock: `${SCHEMA}/InStock`,
  low_stock: `${SCHEMA}/LimitedAvailability`,
  out_of_stock: `${SCHEMA}/OutOfStock`,
  preorder: `${SCHEMA}/PreOrder`,
}

/**
 * A product with its offers in the market: one `Offer` per variant sold there (its SKU, price, availability), or one
 * for the product when it has no variants; the market's currency (ISO 4217) and the market's URL of the product.
 */
export function productData(origin: string, market: Market, product: Product, brand: string): Thing {
  const url = `${origin}/${market.segment}/products/${product.slug}`
  const currency = market.site.currency
  const offer = (price: number, extra: Record<string, unknown> = {}) => ({
    '@type': 'Offer',
    url,
    price: decimalPrice(price, currency),
    priceCurrency: currency,
    itemCondition: `${SCHEMA}/NewCondition`,
    ...extra,
  })
  return {
    '@type': 'Product',
    name: product.name,
    description: product.description || product.tagline || undefined,
    image: (product.gallery.length ? product.gallery : product.image ? [product.image] : []).map(
      (path) => new URL(path, origin).href,
    ),
    category: product.type.name,
    brand: { '@type': 'Brand', name: brand },
    url,
    offers: product.variants.length
      ? product.variants.map((variant) =>
          offer(variant.price, { sku: variant.sku, availability: AVAILABILITY[variant.availability] }),
        )
      : [offer(product.price)],
  }
}

/** A news article, published by the brand. */
export function articleData(origin: string, market: Market, article: NewsArticle, brand: string): Thing {
  const url = `${origin}/${market.segment}/news/details/${article.slug}`
  return {
    '@type': 'NewsArticle',
    headline: article.title,
    description: article.excerpt || undefined,
    image: article.image ? [new URL(article.image, origin).href] : undefined,
    datePublished: article.published_at,
    inLanguage: market.tag,
    mainEntityOfPage: url,
    url,
    author: { '@type': 'Organization', name: brand, url: `${origin}/` },
    publisher: { '@type': 'Organization', name: brand, logo: { '@type': 'ImageObject', url: `${origin}/logo.svg` } },
  }
}

const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday']

/** A dealer as a `BikeStore` (a `LocalBusiness`): address, position, contact and opening hours. */
export function dealerData(origin: string, market: Market, dealer: Dealer): Thing {
  return {
    '@type': 'BikeStore',
    name: dealer.name,
    url: `${origin}/${market.segment}/dealers/${dealer.slug}`,
    address: {
      '@type': 'PostalAddress',
      streetAddress: dealer.address,
      postalCode: dealer.postal_code ?? undefined,
      addressLocality: dealer.city,
      addressRegion: dealer.region ?? undefined,
      addressCountry: dealer.country_code,
    },
    geo: { '@type': 'GeoCoordinates', latitude: dealer.lat, longitude: dealer.lng },
    telephone: dealer.phone ?? undefined,
    email: dealer.email ?? undefined,
    sameAs: dealer.website ? [dealer.website] : undefined,
    openingHoursSpecification: dealer.hours.flatMap((ranges, day) =>
      ranges.map((range) => {
        const [opens, closes] = range.split('-')
        return { '@type': 'OpeningHoursSpecification', dayOfWeek: `${SCHEMA}/${DAYS[day]}`, opens, closes }
      }),
    ),
  }
}

/** Where a page sits: its parents, then itself, each with its name and absolute URL. */
export function breadcrumbs(origin: string, trail: ReadonlyArray<{ name: string; path: string }>): Thing {
  return {
    '@type': 'BreadcrumbList',
    itemListElement: trail.map(({ name, path }, index) => ({
      '@type': 'ListItem',
      position: index + 1,
      name,
      item: origin + path,
    })),
  }
}

/**
 * The text of a JSON-LD script: the things in one `@graph`, with every `<`, `>`, `&` and line separator escaped, so
 * that no text of the content (a product named `</script>…`) can end the element or be read as markup.
 */
export function jsonLd(things: readonly Thing[]): string {
  const known = written.get(things)
  if (known !== undefined) return known
  const json = JSON.stringify({ '@context': SCHEMA, '@graph': things })
  const text = json.replace(/[<>&\u2028\u2029]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)
  written.set(things, text)
  return text
}

/** Each list of things' text, by the list's identity: a list kept for a lookup's data is written once (decision 083). */
const written = new WeakMap<readonly Thing[], string>()

/** Each product's things by the product's identity (a lookup's, kept in the isolate's memo), with what else made them. */
const productThings = new WeakMap<Product, { key: string; things: Thing[] }>()

/**
 * A product page's things, its product and its breadcrumbs, made once per product lookup and what else they say (the
 * origin, market, brand and the home's name): the same list, so its JSON-LD text is written once too. Callers must
 * not change it.
 *
 * @example
 * structuredData: productPageData(origin, market, product, t('brand.name'), t('header.home'))
 */
export function productPageData(
  origin: string,
  market: Market,
  product: Product,
  brand: string,
  home: string,
): Thing[] {
  const key = [origin, market.segment, market.site.currency, brand, home].join('\u0001')
  const known = productThings.get(product)
  if (known?.key === key) return known.things
  const base = `/${market.segment}`
  const things = [
    productData(origin, market, product, brand),
    breadcrumbs(origin, [
      { name: home, path: base },
      { name: product.type.name, path: `${base}/products/type/${product.type.slug}` },
      { name: product.name, path: `${base}/products/${product.slug}` },
    ]),
  ]
  productThings.set(product, { key, things })
  return things
}
