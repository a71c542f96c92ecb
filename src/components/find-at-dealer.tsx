import type { Dealer } from '../../contract/catalogue-schemas'
import { formatKm } from '../dealers/distance-text'
import type { MarketView } from './view'

/** How many of the nearest selling dealers the product page lists. */
export const NEAREST_SELLERS = 3

/**
 * "Find it at a dealer", in place of the buy box where the market does not sell online: the nearest dealers that sell
 * the brand's bikes (docs/decisions/059), each linked to its page with its distance and town, and the dealer locator.
 */
export function FindAtDealer({
  view,
  name,
  dealers,
  locator,
}: {
  view: MarketView
  name: string
  dealers: Array<Dealer & { distance_km: number }>
  locator: string
}) {
  const { t } = view
  return (
    <section className="find-at-dealer" aria-labelledby="find-at-dealer-title">
      <h2 id="find-at-dealer-title">{t('product.find_at_dealer')}</h2>
      <p>{t('product.find_at_dealer_lead', { name })}</p>
      {dealers.length > 0 && (
        <ul className="find-at-dealer-list">
          {dealers.map((dealer) => (
            <li key={dealer.slug}>
              <a href={`/${view.market.segment}/dealers/${dealer.slug}`}>{dealer.name}</a>
              <span className="meta">
                {dealer.city} · {t('dealer.distance', { km: formatKm(dealer.distance_km, view.market.tag) })}
              </span>
            </li>
          ))}
        </ul>
      )}
      <a className="button" href={locator}>
        {t('dealer.all_dealers')}
      </a>
    </section>
  )
}
