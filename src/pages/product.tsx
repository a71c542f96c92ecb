import type { Context } from 'hono'
import { Caching } from '../cache/answer-caching'
import { DefaultLayout } from '../components/layouts'
import { absoluteUrl, type HeadProps } from '../components/page-head'
import type { Chrome, View } from '../components/view'
import { TableScroll } from '../components/table-scroll'
import { ProductSpecs } from '../components/product-specs'
import { SizeGuide } from '../components/size-guide'
import type { AppEnv } from '../env'
import { formatMoney } from '../i18n/formats'
import { sendPage } from '../render/respond'
import { indexedAlternates } from '../seo/alternates'
import { canonicalUrl } from '../seo/canonical'
import { pageGroups } from '../seo/page-groups'
import { breadcrumbs, productData } from '../seo/structured-data'
import type { Product } from '../upstream/catalogue-schemas'
import { findBySlug } from './find-by-slug'
import AddToCart from '../../client/islands/add-to-cart'
import { IslandNames } from '../../client/islands/names'
import { Island } from '../components/island'
import { randomToken } from '../crypto/digest'

/** The product page: gallery, name, price, description, the actions, the size guide, variants and specifications. */
export function ProductPage({ view, chrome, head, product, formKey }: { view: View; chrome: Chrome; head: HeadProps; product: Product; formKey: string }) {
  const { t } = view
  const market = view.market!
  const testRide = chrome.available.pageUrl('test-drive', `?model=${encodeURIComponent(product.slug)}`)
  const dealerLocator = chrome.available.pageUrl('dealer-locator')
  const [main, ...more] = product.gallery.length ? product.gallery : product.image ? [product.image] : []
  const price = (minor: number) => formatMoney(minor, market.site.currency, market)
  // Where a variant costs more than the product's "from" price, the price says so and the variants show theirs.
  const pricesVary = product.variants.some((variant) => variant.price !== product.price)
  return (
    <DefaultLayout view={view} head={head} chrome={chrome}>
      <article className="product">
        <section className="product-gallery" aria-label={t('product.gallery', { name: product.name })}>
          {main && <img src={main} alt={product.name} width={960} height={640} fetchPriority="high" />}
          {more.length > 0 && (
            <ul>
              {more.map((image, index) => (
                <li key={image}>
                  <img src={image} alt={t('product.picture', { number: index + 2, name: product.name })} width={480} height={320} loading="lazy" decoding="async" />
                </li>
              ))}
            </ul>
          )}
        </section>
        <div className="product-info">
          <p className="eyebrow">
            <a href={`/${market.segment}/products/type/${product.type.slug}`}>{product.type.name}</a>
          </p>
          <h1>{product.name}</h1>
          {product.tagline && <p className="lead">{product.tagline}</p>}
          <p className="price">
            <span className="visually-hidden">{t('product.price')}: </span>
            {pricesVary ? t('product.from_price', { price: price(product.price) }) : price(product.price)}
          </p>
          {product.description && <p>{product.description}</p>}
          {chrome.available.has('cart') && product.variants.length > 0 && (
            <BuyBox view={view} product={product} formKey={formKey} price={price} />
          )}
          <SizeGuide view={view} product={product} />
          <div className="actions">
            {testRide && (
              <a className="button" href={testRide}>
                {t('product.book_test_ride')}
              </a>
            )}
            {dealerLocator && (
              <a className="button secondary" href={dealerLocator}>
                {t('product.find_dealer')}
              </a>
            )}
          </div>
        </div>
        {product.variants.length > 0 && (
          <section className="product-section" aria-labelledby="variants-title">
            <h2 id="variants-title">{t('product.variants')}</h2>
            <TableScroll labelledBy="variants-title">
              <table className="variants">
                <thead>
                  <tr>
                    <th scope="col">{t('product.size')}</th>
                    <th scope="col">{t('product.colour')}</th>
                    <th scope="col">{t('product.availability')}</th>
                    {pricesVary && <th scope="col" className="number">{t('product.price')}</th>}
                  </tr>
                </thead>
                <tbody>
                  {product.variants.map((variant) => (
                    <tr key={variant.sku}>
                      <td>{variant.size}</td>
                      <td>
                        <span className={`swatch swatch-${variant.colour}`} aria-hidden="true" /> {t(`colour.${variant.colour}`)}
                      </td>
                      <td>
                        <span className={`availability availability-${variant.availability}`}>{t(`availability.${variant.availability}`)}</span>
                      </td>
                      {pricesVary && <td className="number">{price(variant.price)}</td>}
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          </section>
        )}
        <ProductSpecs view={view} product={product} />
      </article>
    </DefaultLayout>
  )
}

/**
 * The buy box of a market that sells online: the variants (those out of stock shown but not offered), a quantity and
 * "Add to cart" (a plain form, hydrated as an island), then what the price includes and the delivery estimate.
 */
function BuyBox({ view, product, formKey, price }: { view: View; product: Product; formKey: string; price: (minor: number) => string }) {
  const { t } = view
  const market = view.market!
  const { vat, shipping } = market.site.settings
  const props = {
    action: `/${market.segment}/cart/items`,
    product: product.slug,
    formKey,
    maxQuantity: 5,
    cartUrl: `/${market.segment}/cart`,
    options: product.variants.map((variant) => ({
      sku: variant.sku,
      size: variant.size,
      colour: variant.colour,
      colourName: t(`colour.${variant.colour}`),
      price: price(variant.price),
      availability: t(`availability.${variant.availability}`),
      disabled: variant.availability === 'out_of_stock',
      low: variant.availability === 'low_stock',
    })),
    texts: {
      choose: t('cart.choose'),
      quantity: t('cart.quantity'),
      add: t('cart.add'),
      adding: t('cart.adding'),
      failed: t('cart.failed'),
      viewCart: t('cart.view_cart'),
      soldOut: t('availability.out_of_stock'),
      low: t('availability.low_stock'),
    },
  }
  return (
    <section className="buy" aria-label={t('cart.buy_label', { name: product.name })} id="buy">
      <Island name={IslandNames.addToCart} component={AddToCart} props={props} />
      <ul className="buy-notes">
        <li>{vat.included ? t('cart.prices_include_vat') : t('cart.tax_at_checkout')}</li>
        {shipping && (
          <li>
            {t('cart.delivery_days', { min: String(shipping.days[0]), max: String(shipping.days[1]) })}
            {shipping.free_from !== null && <> · {t('cart.free_from', { price: price(shipping.free_from) })}</>}
          </li>
        )}
      </ul>
    </section>
  )
}

/**
 * `GET /{m}/products/{slug}`: a product sold in the market, in its language and currency. An unknown slug, or a
 * product the market does not sell, is "Page Not Found". Products carry their own SEO fields.
 */
export async function productPage(c: Context<AppEnv>): Promise<Response> {
  const { api, t, market } = c.var
  const { found: product, chrome, view } = await findBySlug(c, (slug) => api.catalogue.product(slug))
  const base = `/${market.segment}`
  const head: HeadProps = {
    title: `${product.name} · ${t.t('brand.name')}`,
    description: product.tagline || product.description,
    canonical: canonicalUrl(view.origin, c.req.url),
    ogImage: absoluteUrl(view.origin, product.gallery[0]),
    ogImageAlt: product.name,
    alternates: await indexedAlternates(c, chrome.sites, (places, index) => pageGroups.product(places, index, product.slug)),
    structuredData: view.origin
      ? [
          productData(view.origin, market, product, t.t('brand.name')),
          breadcrumbs(view.origin, [
            { name: t.t('header.home'), path: base },
            { name: product.type.name, path: `${base}/products/type/${product.type.slug}` },
            { name: product.name, path: `${base}/products/${product.slug}` },
          ]),
        ]
      : [],
  }
  // The "add to cart" form's key, new on every answer (a double click sends it twice and adds once).
  return sendPage(c, <ProductPage view={view} chrome={chrome} head={head} product={product} formKey={randomToken()} />, { caching: Caching.shared })
}
