import { formatMoney } from '../i18n/formats'
import type { MenuProduct } from '../../contract/schemas'
import { CardImage, type CardImageLoading } from './card-image'
import type { MarketView } from './view'

/**
 * Product cards: picture, name, tagline and the price in the market's currency, written by the market's rules
 * (`formatMoney`; `price` only when a page writes prices its own way). Pictures load lazily, except the first one's
 * where the cards are the page's main content (`first`): it is the largest paint, so it loads at once with high
 * priority.
 */
export function ProductCards({
  view,
  products,
  price,
  first = 'lazy',
}: {
  view: MarketView
  products: Array<MenuProduct & { price?: number }>
  price?: (minor: number) => string
  first?: CardImageLoading
}) {
  const market = view.market
  const base = `/${market.segment}`
  const written = price ?? ((minor: number) => formatMoney(minor, market.site.currency, market))
  return (
    <ul className="card-grid product-grid">
      {products.map((product, index) => (
        <li key={product.id} className="card">
          <a href={`${base}/products/${product.slug}`}>
            {product.image && (
              <CardImage
                src={product.image}
                width={480}
                height={320}
                eager={index === 0 && first === 'eager'}
                resizing={view.imageResizing}
              />
            )}
            <h3>{product.name}</h3>
            {product.tagline && <p className="card-tagline">{product.tagline}</p>}
            {product.price !== undefined && <p className="card-price">{written(product.price)}</p>}
          </a>
        </li>
      ))}
    </ul>
  )
}
