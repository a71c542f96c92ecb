import type { Context } from 'hono'
import { isbot } from 'isbot'
import type { ReactElement } from 'react'
import { noticeOf } from '../components/toast'
import type { View } from '../components/view'
import { configOf } from '../config'
import type { ErrorStatus } from '../errors/page-error'
import type { AppEnv } from '../env'
import type { Translator } from '../i18n/translator'
import type { Market } from '../market/market'
import { errorName, logEvent } from '../ops/log'
import { loggablePath } from '../ops/request-log'
import type { Deferred } from './deferred'
import { renderPage } from './stream'

export type SendOptions = {
  status?: 200 | 410 | 422 | 429 | ErrorStatus
  deferred?: ReadonlyArray<Deferred<unknown>>
  headers?: Record<string, string>
}

/** The Cache-Control policies of HTML answers (docs/decisions/004). */
export const HtmlCache = {
  /** Public pages: revalidated on every navigation (the Worker answers from warm caches), no cookie, any cache may keep them. */
  public: 'no-cache',
  /**
   * Pages for one visitor that may be kept by their browser only: the landing page (cookie, language), any page a
   * logged-in visitor sees (the header names them), the dealer locator measured from where the visitor is.
   */
  personal: 'private, no-cache',
  /** Redirects and error pages. */
  never: 'no-store',
  /** Answers for one visitor only (account pages, redirects chosen by a cookie or a session): no cache keeps them. */
  private: 'private, no-store',
} as const

/** The view of a page: its translator, market and request details. */
export function viewOf(c: Context<AppEnv>, t: Translator, market: Market | null, hydrate = true): View {
  const url = new URL(c.req.url)
  const viewer = c.var.viewer ?? null
  return {
    t: t.t,
    locale: t.locale,
    dir: t.dir,
    market,
    nonce: c.var.nonce,
    origin: url.origin,
    path: url.pathname,
    hydrate,
    viewer: viewer && { name: viewer.user.first_name || viewer.user.name },
    notice: noticeOf(url.searchParams.get('notice') ?? undefined),
  }
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
    mode: configOf(c.env).renderMode,
    onError: (error) => logEvent('error', 'render_failed', { path: loggablePath(c.req.path), error: errorName(error) }),
  })
  return c.body(body, options.status ?? 200, {
    'Content-Type': 'text/html; charset=utf-8',
    // A logged-in visitor's page shows who they are: only their browser may keep it.
    'Cache-Control': c.var.viewer ? HtmlCache.personal : HtmlCache.public,
    ...options.headers,
  })
}

/** A redirect for one visitor (after a form, around login): no cache keeps it. */
export function sendRedirect(c: Context<AppEnv>, location: string, status: 302 | 303 = 302): Response {
  c.header('Cache-Control', HtmlCache.private)
  return c.redirect(location, status)
}
