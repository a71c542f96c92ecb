import type { Context } from 'hono'
import type { ReactElement } from 'react'
import type { HeadProps } from '../../components/page-head'
import type { Chrome, MarketView } from '../../components/view'
import type { MarketEnv } from '../../env'
import { Caching } from '../../cache/answer-caching'
import { sendPage, viewOf } from '../../render/respond'
import { type ChromeRead, loadChrome } from '../chrome'

/** What every account page gets: the view, the layout's chrome and its head (never indexed). */
export type AccountPageProps = { view: MarketView; chrome: Chrome; head: HeadProps }

/**
 * Renders an account page: the chrome, a `noindex` head titled `{title} · {brand}`, an answer that no cache keeps
 * (`private, no-store`), and no tracking at all: the customer's addresses, bikes and orders are nobody else's. `known`:
 * what the page's own call already answered of the chrome (the overview's cart count).
 */
export async function sendAccountPage(
  c: Context<MarketEnv>,
  title: { key: string; params?: Record<string, string> },
  page: (props: AccountPageProps) => ReactElement,
  status: 200 | 400 | 422 | 429 = 200,
  known: ChromeRead = {},
): Promise<Response> {
  const { market, t } = c.var
  const chrome = await loadChrome(c, known)
  const view = viewOf(c, t, market)
  const head: HeadProps = { title: `${t(title.key, title.params)} · ${t('brand.name')}`, robots: 'noindex' }
  return sendPage(c, page({ view, chrome, head }), { status, caching: Caching.private, tracking: false })
}
