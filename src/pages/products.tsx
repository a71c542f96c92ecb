import type { Context } from 'hono'
import { Caching } from '../cache/answer-caching'
import { DefaultLayout } from '../components/layouts'
import { type HeadProps, headFromSeo } from '../components/page-head'
import { ProductCards } from '../components/product-cards'
import type { Chrome, View } from '../components/view'
import type { AppEnv } from '../env'
import { PageError } from '../errors/page-error'
import { formatMoney } from '../i18n/formats'
import { sendPage, viewOf } from '../render/respond'
import { indexedAlternates } from '../seo/alternates'
import { canonicalUrl } from '../seo/canonical'
import { pageGroups } from '../seo/page-groups'
import { breadcrumbs } from '../seo/structured-data'
import { modelSeo } from '../seo/page-seo'
import type { ProductSummary, ProductType } from '../upstream/catalogue-schemas'
import { loadChrome } from './chrome'

type Shelf = { type: ProductType; products: ProductSummary[] }

/** A product listing: one shelf per type (all products), or the one type asked for, with the types to switch to. */
export function ProductsPage({ view, chrome, head, title, shelves, types }: { view: View; chrome: Chrome; head: HeadProps; title: string; shelves: Shelf[]; types: ProductType[] }) {
  const { t } = view
  const market = view.market!
  const base = `/${market.segment}/products`
  // The first picture shown is the page's largest paint.
  const firstShelf = shelves.find((shelf) => shelf.products.length > 0)
  return (
    <DefaultLayout view={view} head={head} chrome={chrome}>
      <div className="band">
        <h1>{title}</h1>
        <nav className="type-links" aria-label={t('header.products')}>
          <ul>
            <li>
              <a href={base} aria-current={view.path === base ? 'page' : undefined}>
                {t('product.all_products')}
              </a>
            </li>
            {types.map((type) => (
              <li key={type.id}>
                <a href={`${base}/type/${type.slug}`} aria-current={view.path === `${base}/type/${type.slug}` ? 'page' : undefined}>
                  {type.name}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        {shelves.every((shelf) => shelf.products.length === 0) && <p>{t('product.none')}</p>}
        {shelves.map((shelf) =>
          shelf.products.length === 0 ? null : (
            <section key={shelf.type.id} aria-labelledby={`type-${shelf.type.slug}`} className="shelf">
              <h2 id={`type-${shelf.type.slug}`}>{shelf.type.name}</h2>
              <ProductCards
                view={view}
                products={shelf.products}
                price={(minor) => formatMoney(minor, market.site.currency, market)}
                first={shelf === firstShelf ? 'eager' : 'lazy'}
              />
            </section>
          ),
        )}
      </div>
    </DefaultLayout>
  )
}

/**
 * `GET /{m}/products` (every type the market sells) and `GET /{m}/products/type/{type}` (one type; a type the market
 * does not sell is "Page Not Found").
 */
export async function productsPage(c: Context<AppEnv>): Promise<Response> {
  const { market, api, t } = c.var
  const typeSlug = c.req.param('type')
  const [types, chrome] = await Promise.all([api.catalogue.types(), loadChrome(c)])
  const shown = types.filter((type) => typeSlug === undefined || type.slug === typeSlug)
  if (typeSlug !== undefined && shown.length === 0) throw PageError.pageNotFound(c.req.url)
  const lists = await Promise.all(shown.map((type) => api.catalogue.products(type.slug)))
  const shelves = shown.map((type, index) => ({ type, products: lists[index] ?? [] }))
  const title = typeSlug === undefined ? t.t('product.all_products') : (shown[0] as ProductType).name
  const view = viewOf(c, t, market)
  const seo = await (typeSlug === undefined ? modelSeo(api, 'Listing', 'products') : modelSeo(api, 'ProductType', (shown[0] as ProductType).id))
  const head: HeadProps = {
    ...headFromSeo(seo, { title: `${title} · ${t.t('brand.name')}`, description: t.t('brand.tagline') }, view.origin),
    canonical: canonicalUrl(view.origin, c.req.url),
    alternates: await indexedAlternates(c, chrome.sites, (places, index) =>
      typeSlug === undefined ? pageGroups.products(places, index) : pageGroups.productType(places, index, typeSlug)),
    // A type's listing sits under the listing of every product.
    structuredData: view.origin && typeSlug !== undefined
      ? [
          breadcrumbs(view.origin, [
            { name: t.t('header.home'), path: `/${market.segment}` },
            { name: t.t('product.all_products'), path: `/${market.segment}/products` },
            { name: title, path: `/${market.segment}/products/type/${typeSlug}` },
          ]),
        ]
      : [],
  }
  return sendPage(c, <ProductsPage view={view} chrome={chrome} head={head} title={title} shelves={shelves} types={types} />, {
    caching: Caching.shared,
  })
}
