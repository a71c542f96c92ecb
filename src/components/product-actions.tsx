import type { Chrome, MarketView } from './view'

/**
 * A product's ways to go on besides buying it: "book a test ride" (the form with the model chosen) and "find a
 * dealer", each only where its page is available in the market. Prominent where the market does not sell the product
 * online; beside the buy box, secondary, where it does.
 */
export function ProductActions({
  view,
  chrome,
  slug,
  sells = false,
  dealers = true,
}: {
  view: MarketView
  chrome: Chrome
  slug: string
  sells?: boolean
  /** False where the page lists the nearest dealers itself (a market that does not sell online). */
  dealers?: boolean
}) {
  const { t } = view
  const testRide = chrome.available.pageUrl('test-drive', `?model=${encodeURIComponent(slug)}`)
  const dealerLocator = dealers ? chrome.available.pageUrl('dealer-locator') : null
  return (
    <div className={`actions${sells ? '' : ' actions-prominent'}`}>
      {testRide && (
        <a className={`button${sells ? ' secondary' : ''}`} href={testRide}>
          {t('product.book_test_ride')}
        </a>
      )}
      {dealerLocator && (
        <a className="button secondary" href={dealerLocator}>
          {t('product.find_dealer')}
        </a>
      )}
    </div>
  )
}
