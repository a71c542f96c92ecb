import { type Context, Hono } from 'hono'
import type { AppEnv } from '../env'
import { PageError } from '../errors/page-error'
import { readForm } from '../forms/read-form'
import { purgeMarket } from '../ops/purge'
import { sendRedirect } from '../render/respond'
import { staffCalls } from '../upstream/contract/staff'
import { MARKET_SWITCHES, type MarketSwitch, type MarketSwitches } from '../../contract/staff-schemas'
import { Flash, formatTime } from './components'
import { consoleGate } from './guard'
import { sendConsolePage } from './page'
import { sectionPath } from './sections'

/**
 * Markets (editors): each market's maintenance switch and its three lead-form switches, a form per market. A change
 * is recorded upstream (who, when, from and to) and purges that market's cached lookups at once, so its next request
 * already answers as switched (503 for maintenance).
 */
export const markets = new Hono<AppEnv>()
markets.use(consoleGate('editor'))
markets.get('/', marketsPage)
markets.post('/:country', changeMarket)

const MARKETS_PATH = sectionPath('markets')

/** What each switch is called here. */
export const SWITCH_LABELS: Record<MarketSwitch, string> = {
  under_maintenance: 'Under maintenance (every page answers 503)',
  test_ride_inquiry: 'Test-ride form',
  become_a_partner: 'Dealer and distributor forms',
  work_with_us: 'Job applications form',
}

/** How many recent changes each market lists. */
const HISTORY = 3

/** `GET /_console/markets`: every market's switches and its recent changes. */
export async function marketsPage(c: Context<AppEnv>): Promise<Response> {
  const api = staffCalls(c.var.staffApi)
  const list = await api.markets()
  const histories = await Promise.all(list.map((market) => api.events(`market:${market.country}`)))
  const changed = c.req.query('changed')
  const changedMarket = list.find((market) => market.country === changed)
  return sendConsolePage(c, {
    title: 'Markets',
    body: (
      <>
        {changedMarket && (
          <Flash>
            <bdi>{changedMarket.name}</bdi>: saved, and its cache purged.
          </Flash>
        )}
        <p className="hint">A change shows on the market's next request. Every change is recorded with your name.</p>
        <div className="markets">
          {list.map((market, index) => (
            <MarketForm key={market.country} market={market} history={(histories[index] ?? []).slice(0, HISTORY)} />
          ))}
        </div>
      </>
    ),
  })
}

type History = Array<{ action: string; detail: string; staff_name: string; at: string }>

function MarketForm({ market, history }: { market: MarketSwitches; history: History }) {
  const id = `market-${market.country}`
  return (
    <section className="market" id={id} aria-labelledby={`${id}-name`}>
      <h2 id={`${id}-name`}>
        <bdi>{market.name}</bdi> <span className="badge">{market.country}</span>{' '}
        {market.under_maintenance && <span className="badge error">Maintenance</span>}
      </h2>
      <form method="post" action={`${MARKETS_PATH}/${market.country}`}>
        <fieldset>
          <legend>
            Switches of <bdi>{market.name}</bdi>
          </legend>
          {MARKET_SWITCHES.map((name) => (
            <label className="check" key={name}>
              <input type="checkbox" name={name} value="on" defaultChecked={market[name]} />
              {SWITCH_LABELS[name]}
            </label>
          ))}
        </fieldset>
        <button type="submit" className="button primary">
          Save <bdi>{market.name}</bdi>
        </button>
      </form>
      {history.length > 0 && (
        <ul className="history" aria-label={`Recent changes of ${market.name}`}>
          {history.map((event, index) => (
            <li key={index}>{`${formatTime(event.at)}, ${event.staff_name}: ${changeText(event)}`}</li>
          ))}
        </ul>
      )}
    </section>
  )
}

/** An event in words: "maintenance on, test-ride form off", "cache purged". */
function changeText(event: { action: string; detail: string }): string {
  if (event.action === 'cache_purged') return 'cache purged'
  try {
    const change = JSON.parse(event.detail) as Record<string, { to: boolean }>
    return Object.entries(change)
      .map(
        ([name, { to }]) =>
          `${(SWITCH_LABELS[name as MarketSwitch] ?? name).replace(/ \(.*\)$/, '')} ${to ? 'on' : 'off'}`,
      )
      .join(', ')
  } catch {
    return event.action.replace(/_/g, ' ')
  }
}

/**
 * `POST /_console/markets/{country}`: the market's form, every switch as checked or not; the change is recorded
 * upstream, then the market's cache purged, then back to the list.
 */
export async function changeMarket(c: Context<AppEnv>): Promise<Response> {
  const country = c.req.param('country') ?? ''
  if (!/^[a-z]{2,3}$/.test(country)) throw PageError.notFound('')
  const form = await readForm(c)
  const change = Object.fromEntries(MARKET_SWITCHES.map((name) => [name, form[name] === 'on'])) as Record<
    MarketSwitch,
    boolean
  >
  const market = await staffCalls(c.var.staffApi).changeMarket(country, change)
  if (!market) throw PageError.notFound('')
  await purgeMarket(c.env, country)
  return sendRedirect(c, `${MARKETS_PATH}?changed=${country}#market-${country}`, 303)
}
