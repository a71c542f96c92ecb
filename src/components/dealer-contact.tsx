import type { Dealer } from '../../contract/catalogue-schemas'
import { directionsUrl, telUrl } from '../dealers/directions'
import { openState } from '../dealers/opening-hours'
import { dealerTimeZone } from '../dealers/time-zones'
import type { MarketView } from './view'

/** A clock time ("09:00") as the page's language writes it ("9:00", "9:00 AM"). */
const clockTime = (time: string, tag: string) =>
  new Intl.DateTimeFormat(tag, { hour: 'numeric', minute: '2-digit', timeZone: 'UTC' }).format(
    Date.UTC(1970, 0, 5, Number(time.slice(0, 2)), Number(time.slice(3, 5))),
  )

/** A weekday (Monday 0) as the page's language names it in a sentence ("lunedì"); 1970-01-05 was a Monday. */
const weekday = (day: number, tag: string) =>
  new Intl.DateTimeFormat(tag, { weekday: 'long', timeZone: 'UTC' }).format(Date.UTC(1970, 0, 5 + day))

/**
 * "Open now · closes at 19:30" or "Closed · opens tomorrow at 9:00": the dealer's state at `now` on its own clocks
 * (src/dealers/time-zones.ts), written when the page is rendered.
 */
export function OpenNow({ view, dealer, now }: { view: MarketView; dealer: Dealer; now: Date }) {
  const { t } = view
  const tag = view.market.tag
  const state = openState(dealer.hours, now, dealerTimeZone(dealer))
  const time = (at: string) => clockTime(at, tag)
  const text = state.open
    ? t('dealer.open_now', { time: time(state.closesAt) })
    : state.opensAt === null
      ? t('dealer.closed')
      : state.day === 'today'
        ? t('dealer.opens_today', { time: time(state.opensAt) })
        : state.day === 'tomorrow'
          ? t('dealer.opens_tomorrow', { time: time(state.opensAt) })
          : t('dealer.opens_on', { day: weekday(state.day, tag), time: time(state.opensAt) })
  return (
    <p className={`open-now${state.open ? ' is-open' : ''}`} data-open={state.open ? 'true' : 'false'}>
      <span className="open-now-dot" aria-hidden="true" />
      {text}
    </p>
  )
}

/**
 * A dealer's call (`tel:`) and directions buttons; on a card of many, the dealer's name completes each for assistive
 * technology, which may list the page's links out of their cards.
 */
export function DealerButtons({ view, dealer, named = false }: { view: MarketView; dealer: Dealer; named?: boolean }) {
  const { t } = view
  const name = named ? <span className="visually-hidden">{` (${dealer.name})`}</span> : null
  return (
    <div className="dealer-buttons">
      {dealer.phone && (
        <a className="button secondary dealer-call" href={telUrl(dealer.phone)}>
          {t('dealer.call')}
          {name}
        </a>
      )}
      <a className="button secondary dealer-directions" href={directionsUrl(dealer)} rel="noopener noreferrer">
        {t('dealer.directions')}
        {name}
      </a>
    </div>
  )
}
