import type { MenuProduct } from '../upstream/schemas'
import { CardImage, type CardImageLoading } from './card-image'
import type { View } from './view'

/**
 * Product cards: picture, name, tagline and, where known, the price in the market's currency. Pictures load lazily,
 * except the first one's where the cards are the page's main content (`first`): it is the largest paint, so it loads
 * at once with high priority.
 */
export function ProductCards({ view, products, price, first = 'lazy' }: { view: View; products: Array<MenuProduct & { price?: number }>; price?: (minor: number) => string; first?: CardImageLoading }) {
  const base = `/${view.market!.segment}`
  return (
    <ul className="card-grid">
      {products.map((product, index) => (
        <li key={product.id} className="card">
          <a href={`${base}/products/${product.slug}`}>
            {product.image && <CardImage src={product.image} width={480} height={320} eager={index === 0 && first === 'eager'} resizing={view.imageResizing} />}
            <h3>{product.name}</h3>
            {product.tagline && <p>{product.tagline}</p>}
            {price && product.price !== undefined && <p className="card-price">{price(product.price)}</p>}
          </a>
        </li>
      ))}
    </ul>
  )
}
