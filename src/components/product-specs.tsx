import { specRuns } from '../catalogue/spec-values'
import type { Product } from '../../contract/catalogue-schemas'
import { Runs } from './spec-value'
import type { MarketView } from './view'

/**
 * The product page's specifications: each label translated, each value in the market's language with its numbers
 * written the market's way (src/catalogue/spec-values.ts), left-to-right runs isolated on right-to-left pages.
 */
export function ProductSpecs({ view, product }: { view: MarketView; product: Product }) {
  const { t, dir } = view
  const tag = view.market.tag
  if (product.specs.length === 0) return null
  return (
    <section className="product-section" aria-labelledby="specs-title">
      <h2 id="specs-title">{t('product.specs')}</h2>
      <dl className="specs">
        {product.specs.map((spec) => (
          <div key={spec.key}>
            <dt>{t(`spec.${spec.key}`)}</dt>
            <dd>
              <Runs runs={specRuns(spec.parts, tag)} dir={dir} />
            </dd>
          </div>
        ))}
      </dl>
    </section>
  )
}
