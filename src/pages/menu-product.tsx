import type { Context } from 'hono'
import { Caching } from '../cache/answer-caching'
import { DefaultLayout } from '../components/layouts'
import { ProductActions } from '../components/product-actions'
import { absoluteUrl, type HeadProps } from '../components/page-head'
import { ResponsiveImage } from '../components/responsive-image'
import type { Chrome, MarketView } from '../components/view'
import type { MarketEnv } from '../env'
import { sendPage } from '../render/respond'
import { canonicalUrl } from '../seo/canonical'
import type { MenuProduct } from '../../contract/schemas'
import { findBySlug } from './find-by-slug'

/**
 * A product the backend names only in its menu (no catalogue area, docs/decisions/041): what the menu says (name,
 * picture, type, tagline), with "book a test ride" and "find a dealer" where those pages exist.
 */
export function MenuProductPage({
  view,
  chrome,
  head,
  product,
}: {
  view: MarketView
  chrome: Chrome
  head: HeadProps
  product: MenuProduct
}) {
  const { t } = view
  return (
    <DefaultLayout view={view} head={head} chrome={chrome}>
      <nav className="breadcrumbs" aria-label={t('product.breadcrumbs')}>
        <ol>
          <li>
            <a href={`/${view.market.segment}`}>{t('header.home')}</a>
          </li>
          <li>{product.type.name}</li>
          <li>
            <span aria-current="page">{product.name}</span>
          </li>
        </ol>
      </nav>
      <article className="product">
        <header className="product-head">
          <h1>{product.name}</h1>
          {product.tagline && <p className="lead">{product.tagline}</p>}
        </header>
        {product.image && (
          <ResponsiveImage
            src={product.image}
            alt={product.name}
            width={960}
            height={640}
            place="gallery"
            resizing={view.imageResizing ?? false}
            loading="eager"
          />
        )}
        <div className="product-aside">
          <ProductActions view={view} chrome={chrome} slug={product.slug} />
        </div>
      </article>
    </DefaultLayout>
  )
}

/** `GET /{m}/products/{slug}` where the backend has no catalogue: the menu's product, else "Page Not Found". */
export async function menuProductPage(c: Context<MarketEnv>): Promise<Response> {
  const { api, t } = c.var
  const {
    found: product,
    chrome,
    view,
  } = await findBySlug(c, async (slug) => (await api.catalogue.menu()).find((item) => item.slug === slug) ?? null)
  const head: HeadProps = {
    title: `${product.name} · ${t('brand.name')}`,
    description: product.tagline,
    canonical: canonicalUrl(view.origin, c.req.url),
    ogImage: absoluteUrl(view.origin, product.image),
    ogImageAlt: product.name,
  }
  return sendPage(c, <MenuProductPage view={view} chrome={chrome} head={head} product={product} />, {
    caching: Caching.shared,
  })
}
