import { type Context, Hono } from 'hono'
import type { AppEnv } from '../env'
import { readForm } from '../forms/read-form'
import { purgeEverything, purgeMarket } from '../ops/purge'
import { sendRedirect } from '../render/respond'
import { staffCalls } from '../upstream/contract/staff'
import { ConsoleSelect, DataTable, Flash, marketOptions, Time, withQuery } from './components'
import { consoleGate } from './guard'
import { sendConsolePage } from './page'
import { sectionPath } from './sections'

/**
 * Purge (editors): empty one market's cached lookups, or every one (what `POST /_purge` does for operators), recorded
 * upstream as a staff event (`cache_purged` on `market:{country}` or `cache:everything`).
 */
export const purgePages = new Hono<AppEnv>()
purgePages.use(consoleGate('editor'))
purgePages.get('/', purgePage)
purgePages.post('/', submitPurge)

const PURGE_PATH = sectionPath('purge')
const EVERYTHING = 'everything'
const EVERYTHING_TARGET = 'cache:everything'

/** `GET /_console/purge`: the form, and the recent purges of everything. */
export async function purgePage(c: Context<AppEnv>): Promise<Response> {
  const api = staffCalls(c.var.staffApi)
  const [markets, history] = await Promise.all([api.markets(), api.events(EVERYTHING_TARGET)])
  const done = c.req.query('done')
  const count = c.req.query('purged')
  const doneName = done === EVERYTHING ? 'Everything' : markets.find((market) => market.country === done)?.name
  return sendConsolePage(c, {
    title: 'Purge the cache',
    body: (
      <>
        {doneName && (
          <Flash>
            <bdi>{doneName}</bdi>
            {`: purged (${count && /^[0-9]+$/.test(count) ? count : 0} cached entries).`}
          </Flash>
        )}
        <p>
          The site keeps markets, translations, menus and pages in its cache and refreshes them in the background. Purge
          after changing content upstream that must show at once. A switch changed on the Markets page purges its market
          by itself.
        </p>
        <form className="filters" method="post" action={PURGE_PATH}>
          <ConsoleSelect
            label="What to purge"
            name="scope"
            any={null}
            value={EVERYTHING}
            options={[{ value: EVERYTHING, label: 'Everything (every market)' }, ...marketOptions(markets)]}
          />
          <div className="filter-actions">
            <button type="submit" className="button danger">
              Purge
            </button>
          </div>
        </form>
        <h2>Recent purges of everything</h2>
        <DataTable
          caption="Purges of everything, newest first"
          head={['When', 'Who']}
          empty="None yet."
          rows={history
            .slice(0, 10)
            .map((event, index) => ({ key: index, cells: [<Time at={event.at} />, event.staff_name] }))}
        />
        <p className="hint">A market's own purges are listed with its switches on the Markets page.</p>
      </>
    ),
  })
}

/** `POST /_console/purge`: `scope` is `everything` or a country; purges, records, and comes back with the count. */
export async function submitPurge(c: Context<AppEnv>): Promise<Response> {
  const scope = (await readForm(c)).scope ?? ''
  const api = staffCalls(c.var.staffApi)
  if (scope !== EVERYTHING) {
    const markets = await api.markets()
    if (!markets.some((market) => market.country === scope)) {
      return sendConsolePage(c, {
        title: 'Purge the cache',
        status: 422,
        body: <Flash tone="error">Choose a market, or everything.</Flash>,
      })
    }
  }
  const purged = scope === EVERYTHING ? await purgeEverything(c.env) : await purgeMarket(c.env, scope)
  await api.recordEvent({
    action: 'cache_purged',
    target: scope === EVERYTHING ? EVERYTHING_TARGET : `market:${scope}`,
  })
  return sendRedirect(c, withQuery(PURGE_PATH, { done: scope, purged }), 303)
}
