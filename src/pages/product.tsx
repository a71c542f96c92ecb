import type { Context } from 'hono'
import { Caching } from '../cache/answer-caching'
import { DefaultLayout } from '../components/layouts'
import { ProductActions } from '../components/product-actions'
import { absoluteUrl, type HeadProps } from '../components/page-head'
import type { Chrome, MarketView } from '../components/view'
import { ProductCards } from '../components/product-cards'
import { preloadPicture, ResponsiveImage } from '../components/responsive-image'
import { ProductSpecs } from '../components/product-specs'
import { SizeGuide } from '../components/size-guide'
import type { MarketEnv } from '../env'
import { formatMoney } from '../i18n/formats'
import { sendPage } from '../render/respond'
import { indexedAlternates } from '../seo/alternates'
import { canonicalUrl } from '../seo/canonical'
import { pageGroups } from '../seo/page-groups'
import { productPageData } from '../seo/structured-data'
import type { Dealer, Product, ProductSummary } from '../../contract/catalogue-schemas'
import { FindAtDealer, NEAREST_SELLERS } from '../components/find-at-dealer'
import { findBySlug } from './find-by-slug'
import { menuProductPage } from './menu-product'
import AddToCart, { type AddToCartProps } from '../../client/islands/add-to-cart'
import { IslandNames } from '../../client/islands/names'
import { Island } from '../components/island'
import { sizeName } from '../catalogue/size-name'
import { randomToken } from '../crypto/digest'
import { textsOf } from '../i18n/translator'
import { Kept } from '../render/kept'

/** The product page: breadcrumbs, gallery, the buy column (name, price, colours, sizes, actions), size guide, specifications, related products. */
export function ProductPage({
  view,
  chrome,
  head,
  product,
  formKey,
  related,
  sellers = [],
}: {
  view: MarketView
  chrome: Chrome
  head: HeadProps
  product: Product
  formKey: string
  related: ProductSummary[]
  /** Where the market does not sell online: the nearest dealers that sell the brand's bikes. */
  sellers?: Array<Dealer & { distance_km: number }>
}) {
  const { t } = view
  const market = view.market
  const sells = sellsOnline(chrome, product)
  const locator = chrome.available.pageUrl('dealer-locator')
  // The body is the same for every visitor of the market and language but the form's key: kept as bytes
  // (src/render/kept.tsx, decision 083), the key written in.
  const deps = [
    ...textsOf(t),
    market.segment,
    market.tag,
    market.site,
    view.imageResizing ?? false,
    product,
    related,
    sellers,
    sells,
    locator,
    chrome.available.pageUrl('test-drive'),
  ]
  // The gallery's first picture is the largest paint: its preload asked for here, the body may be kept.
  const [firstPicture] = galleryOrder(product).ordered
  if (firstPicture) preloadPicture(firstPicture, 'gallery', view.imageResizing ?? false, GALLERY_WIDTH)
  return (
    <DefaultLayout view={view} head={head} chrome={chrome}>
      <Kept part="product-body" deps={deps} values={{ formKey }}>
        {(spliced) => (
          <ProductBody
            view={view}
            chrome={chrome}
            product={product}
            formKey={spliced.formKey}
            related={related}
            sellers={sellers}
            sells={sells}
            locator={locator}
          />
        )}
      </Kept>
    </DefaultLayout>
  )
}

/** The product page's body under the header: breadcrumbs and the product itself. */
function ProductBody({
  view,
  chrome,
  product,
  formKey,
  related,
  sellers,
  sells,
  locator,
}: {
  view: MarketView
  chrome: Chrome
  product: Product
  formKey: string
  related: ProductSummary[]
  sellers: Array<Dealer & { distance_km: number }>
  sells: boolean
  locator: string | null
}) {
  const { t, market } = view
  const base = `/${market.segment}`
  const price = (minor: number) => formatMoney(minor, market.site.currency, market)
  // Where a variant costs more than the product's "from" price, the price says so and the variants show theirs.
  const pricesVary = product.variants.some((variant) => variant.price !== product.price)
  const priceText = pricesVary ? t('product.from_price', { price: price(product.price) }) : price(product.price)
  const picker = pickerProps(view, product, price, priceText)
  return (
    <>
      <nav className="breadcrumbs" aria-label={t('product.breadcrumbs')}>
        <ol>
          <li>
            <a href={base}>{t('header.home')}</a>
          </li>
          <li>
            <a href={`${base}/products/type/${product.type.slug}`}>{product.type.name}</a>
          </li>
          <li>
            <span aria-current="page">{product.name}</span>
          </li>
        </ol>
      </nav>
      <article className="product">
        <header className="product-head">
          <h1>{product.name}</h1>
          {product.tagline && <p className="lead">{product.tagline}</p>}
          {/* The price once: where the market sells online, the buy box shows the chosen colour's. */}
          {!sells && (
            <p className="price">
              <span className="visually-hidden">{t('product.price')}: </span>
              {priceText}
            </p>
          )}
        </header>
        <Gallery view={view} product={product} />
        <div className="product-aside">
          {sells ? (
            <BuyBox view={view} product={product} formKey={formKey} price={price} picker={picker} />
          ) : (
            <>
              {product.variants.length > 0 && (
                <section className="buy" aria-label={t('product.colour')}>
                  <AddToCart {...picker} action={null} />
                </section>
              )}
              {locator && <FindAtDealer view={view} name={product.name} dealers={sellers} locator={locator} />}
            </>
          )}
          <ProductActions view={view} chrome={chrome} slug={product.slug} sells={sells} dealers={sells || !locator} />
        </div>
        {product.description && (
          <div className="product-section product-description">
            <p>{product.description}</p>
          </div>
        )}
        {product.size_guide && (
          <div className="product-section">
            <SizeGuide view={view} product={product} />
          </div>
        )}
        <ProductSpecs view={view} product={product} />
        {related.length > 0 && (
          <section className="product-section product-related" aria-labelledby="related-title">
            <h2 id="related-title">{t('product.related', { type: product.type.name })}</h2>
            <ProductCards view={view} products={related} price={price} />
          </section>
        )}
      </article>
    </>
  )
}

/** A gallery picture's layout width. */
const GALLERY_WIDTH = 960

/**
 * The gallery: every picture a link to its file (so without JavaScript it opens in full), those of the product's
 * colours marked with theirs. The page's styles show the chosen colour's pictures and the shared ones; with
 * JavaScript a click opens the full-screen viewer (a chunk loaded on that click), with the texts given here.
 */
function Gallery({ view, product }: { view: MarketView; product: Product }) {
  const { t } = view
  const { colourOf, ordered } = galleryOrder(product)
  const texts = {
    label: t('product.viewer', { name: product.name }),
    close: t('product.viewer_close'),
    zoomIn: t('product.viewer_zoom_in'),
    zoomOut: t('product.viewer_zoom_out'),
    previous: t('product.viewer_previous'),
    next: t('product.viewer_next'),
  }
  return (
    <section
      className="product-gallery"
      aria-label={t('product.gallery', { name: product.name })}
      data-viewer-texts={JSON.stringify(texts)}
    >
      <ul className="gallery-list">
        {ordered.map((path, index) => {
          const colour = colourOf.get(path)
          // "Strada 9, Red" for a colour's first picture, "Picture 2 of Strada 9, Red" for its next ones.
          const named = colour
            ? t('product.in_colour', { name: product.name, colour: t(`colour.${colour}`) })
            : product.name
          const number = ordered.slice(0, index + 1).filter((other) => colourOf.get(other) === colour).length
          const alt =
            colour && number === 1 ? named : t('product.picture', { number: colour ? number : index + 1, name: named })
          return (
            <li key={path} className="gallery-item" data-colour={colour}>
              <a className="gallery-link" href={path} data-viewer="">
                <ResponsiveImage
                  src={path}
                  alt={alt}
                  width={GALLERY_WIDTH}
                  height={640}
                  place="gallery"
                  resizing={view.imageResizing ?? false}
                  loading={index === 0 ? 'eager' : 'lazy'}
                />
                <span className="gallery-zoom" aria-hidden="true" />
              </a>
            </li>
          )
        })}
      </ul>
    </section>
  )
}

/** The gallery's pictures in the order shown, and the colour each one shows (none: every colour shares it). */
function galleryOrder(product: Product): { colourOf: Map<string, string>; ordered: string[] } {
  const colourOf = new Map<string, string>()
  for (const [colour, paths] of Object.entries(product.colour_gallery))
    for (const path of paths) colourOf.set(path, colour)
  const pictures = product.gallery.length ? product.gallery : product.image ? [product.image] : []
  // The colours' own pictures first, in the order of the colours offered (so the first shown is the first colour's),
  // then those every colour shares.
  const colours = [...new Set(product.variants.map((variant) => variant.colour))]
  const rank = (path: string) => {
    const colour = colourOf.get(path)
    return colour === undefined ? colours.length : colours.includes(colour) ? colours.indexOf(colour) : colours.length
  }
  const ordered = pictures
    .map((path, index) => ({ path, index }))
    .sort((a, b) => rank(a.path) - rank(b.path) || a.index - b.index)
    .map(({ path }) => path)
  return { colourOf, ordered }
}

/** The colours and sizes as the picker shows them (in the buy box, or alone where the market does not sell online). */
function pickerProps(
  view: MarketView,
  product: Product,
  price: (minor: number) => string,
  priceText: string,
): Omit<AddToCartProps, 'action'> {
  const { t } = view
  const colours = new Set(Object.keys(product.colour_gallery))
  /** A colour's price: its sizes' one price, else "From" the lowest. */
  const colourPrice = (colour: string) => {
    const prices = product.variants.filter((variant) => variant.colour === colour).map((variant) => variant.price)
    const lowest = Math.min(...prices)
    return prices.every((one) => one === lowest) ? price(lowest) : t('product.from_price', { price: price(lowest) })
  }
  return {
    product: product.slug,
    formKey: '',
    maxQuantity: 5,
    cartUrl: `/${view.market.segment}/cart`,
    price: priceText,
    priceLabel: t('product.price'),
    // The size guide (components/size-guide.tsx) is offered beside the sizes when the product has one.
    sizeGuide: product.size_guide ? { href: '#size-guide', text: t('size_guide.open') } : undefined,
    colours: [...new Set(product.variants.map((variant) => variant.colour))].map((colour) => ({
      key: colour,
      name: t(`colour.${colour}`),
      pictures: colours.has(colour),
      price: colourPrice(colour),
    })),
    options: product.variants.map((variant) => ({
      sku: variant.sku,
      size: sizeName(t, variant.size),
      colour: variant.colour,
      colourName: t(`colour.${variant.colour}`),
      price: price(variant.price),
      availability: t(`availability.${variant.availability}`),
      disabled: variant.availability === 'out_of_stock',
      low: variant.availability === 'low_stock',
    })),
    texts: {
      colour: t('product.colour'),
      size: t('product.size'),
      chooseSize: t('cart.choose_size'),
      quantity: t('cart.quantity'),
      add: t('cart.add'),
      adding: t('cart.adding'),
      failed: t('cart.failed'),
      viewCart: t('cart.view_cart'),
      soldOut: t('availability.out_of_stock'),
      low: t('availability.low_stock'),
    },
    sheet: {
      title: t('cart.sheet_title'),
      close: t('common.close'),
      quantity: t('cart.quantity'),
      subtotal: t('cart.sheet_total'),
      checkout: t('cart.checkout'),
      continue: t('cart.continue'),
    },
  }
}

/**
 * The buy box of a market that sells online: colours, sizes (those out of stock shown but not offered), a quantity and
 * "Add to cart" (a plain form, hydrated as an island, with its bar kept in view on phones), then what the price
 * includes and the delivery estimate.
 */
function BuyBox({
  view,
  product,
  formKey,
  price,
  picker,
}: {
  view: MarketView
  product: Product
  formKey: string
  price: (minor: number) => string
  picker: Omit<AddToCartProps, 'action'>
}) {
  const { t } = view
  const market = view.market
  const { vat, shipping } = market.site.settings
  const props: AddToCartProps = { ...picker, action: `/${market.segment}/cart/items`, formKey }
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

/** Whether the page offers the product for sale: the market has a cart (it sells online) and the product variants. */
const sellsOnline = (chrome: Chrome, product: Product) => chrome.available.has('cart') && product.variants.length > 0

/**
 * The nearest dealers that sell the brand's bikes (`services.sales`: the dealers API says nothing of models or stock,
 * docs/decisions/059), measured from the market's centre so that the page stays one for every visitor (the API's
 * nearest, not the market's list: docs/decisions/070); none when the market sells online, has no dealer locator or
 * no centre, or the list fails.
 */
async function sellersOf(c: Context<MarketEnv>, sells: boolean): Promise<Array<Dealer & { distance_km: number }>> {
  if (sells || !c.var.available.pageUrl('dealer-locator')) return []
  try {
    const { centre } = c.var.market.site
    return centre ? await c.var.api.dealers.nearest(centre, ['sales'], NEAREST_SELLERS, true) : []
  } catch {
    return []
  }
}

/** How many other products "more like this" shows. */
const RELATED = 4

/**
 * Up to four other products of the same type the market sells, the type's first in the brand's order (one more is
 * read in case the product is among them: the page reads what it shows, whatever the type's size); none when the list
 * fails.
 */
async function relatedTo(c: Context<MarketEnv>, product: Product): Promise<ProductSummary[]> {
  try {
    const products = await c.var.api.catalogue.firstProducts(product.type.slug, RELATED + 1)
    return products.filter((other) => other.slug !== product.slug).slice(0, RELATED)
  } catch {
    return []
  }
}

/**
 * `GET /{m}/products/{slug}`: a product sold in the market, in its language and currency. An unknown slug, or a
 * product the market does not sell, is "Page Not Found". Products carry their own SEO fields. Without the catalogue
 * area (served, or held on D1: docs/decisions/043), the page of what the menu says (src/pages/menu-product.tsx).
 */
export async function productPage(c: Context<MarketEnv>): Promise<Response> {
  const { api, t, market } = c.var
  if (!c.var.areas.served('catalogue') && !c.var.areas.held('catalogue')) return menuProductPage(c)
  const { found: product, chrome, view } = await findBySlug(c, (slug) => api.catalogue.product(slug))
  const head: HeadProps = {
    title: `${product.name} · ${t('brand.name')}`,
    description: product.tagline || product.description,
    canonical: canonicalUrl(view.origin, c.req.url),
    ogImage: absoluteUrl(view.origin, product.gallery[0]),
    ogImageAlt: product.name,
    alternates: await indexedAlternates(
      c,
      chrome.sites,
      (places, index) => pageGroups.product(places, index, product.slug),
      { product: product.slug },
    ),
    structuredData: view.origin ? productPageData(view.origin, market, product, t('brand.name'), t('header.home')) : [],
  }
  const sells = sellsOnline(chrome, product)
  const [related, sellers] = await Promise.all([relatedTo(c, product), sellersOf(c, sells)])
  // The "add to cart" form's key, new on every answer (a double click sends it twice and adds once).
  return sendPage(
    c,
    <ProductPage
      view={view}
      chrome={chrome}
      head={head}
      product={product}
      formKey={randomToken()}
      related={related}
      sellers={sellers}
    />,
    {
      caching: Caching.shared,
    },
  )
}
