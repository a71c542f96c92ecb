import type { MenuProduct } from '../upstream/schemas'
import type { View } from './view'

/** Product cards: picture, name, tagline and, where known, the price in the market's currency. */
export function ProductCards({ view, products, price }: { view: View; products: Array<MenuProduct & { price?: number }>; price?: (minor: number) => string }) {
  const base = `/${view.market!.segment}`
  return (
    <ul className="card-grid">
      {products.map((product) => (
        <li key={product.id} className="card">
          <a href={`${base}/products/${product.slug}`}>
            {product.image && <img src={product.image} alt="" width={480} height={320} loading="lazy" decoding="async" />}
            <h3>{product.name}</h3>
            {product.tagline && <p>{product.tagline}</p>}
            {price && product.price !== undefined && <p className="card-price">{price(product.price)}</p>}
          </a>
        </li>
      ))}
    </ul>
  )
}
