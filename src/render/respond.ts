import type { Context } from 'hono'
import { isbot } from 'isbot'
import type { ReactElement } from 'react'
import type { View } from '../components/view'
import type { AppEnv } from '../env'
import type { Translator } from '../i18n/translator'
import type { Market } from '../market/market'
import { errorName, logEvent } from '../ops/log'
import type { Deferred } from './deferred'
import { renderPage } from './stream'

export type SendOptions = {
  status?: 200 | 404 | 503 | 400 | 403 | 405 | 413 | 500
  deferred?: ReadonlyArray<Deferred<unknown>>
  headers?: Record<string, string>
}

/**
 * HTML answers revalidate on every navigation (the Worker answers from its warm caches in a few milliseconds) and,
 * sending no cookie, may be kept by any cache in between.
 */
export const HtmlCacheControl = 'no-cache'

/** The view of a page: its translator, market and request details. */
export function viewOf(c: Context<AppEnv>, t: Translator, market: Market | null, hydrate = true): View {
  const url = new URL(c.req.url)
  return { t: t.t, locale: t.locale, dir: t.dir, market, nonce: c.var.nonce, origin: url.origin, path: url.pathname, hydrate }
}

/**
 * Renders a page and answers it; the status and headers are final before the first byte. Errors after the shell
 * has left are only logged.
 */
export async function sendPage(c: Context<AppEnv>, page: ReactElement, options: SendOptions = {}): Promise<Response> {
  const body = await renderPage(page, {
    nonce: c.var.nonce,
    deferred: options.deferred ?? [],
    complete: isbot(c.req.header('User-Agent') ?? ''),
    mode: c.env.RENDER_MODE === 'stream' ? 'stream' : 'auto',
    onError: (error) => logEvent('error', 'render_failed', { path: c.req.path, error: errorName(error) }),
  })
  return c.body(body, options.status ?? 200, {
    'Content-Type': 'text/html; charset=utf-8',
    'Cache-Control': HtmlCacheControl,
    ...options.headers,
  })
}
