import type { Context } from 'hono'
import { Caching } from '../cache/answer-caching'
import type { MarketEnv } from '../env'
import { PageError } from '../errors/page-error'
import { movedPageRedirect } from '../market/moved-page'
import { sendPage } from '../render/respond'
import { ContentPageLayout, contentPageParts } from './content-page-parts'
import { sendDealerLocator } from './dealer-locator'
import { LEAD_FORMS } from './lead-forms'
import { sendLeadFormPage } from './lead-form'

/**
 * `GET /{m}/{page}`: the slug is looked up in the market's pageLinks (slugs differ per market and locale); a slug the
 * page had before is moved there (301, market/moved-page.ts); an unknown slug or a page without content is "Page Not Found"; an upstream failure with nothing cached is the app's 503. The dealer
 * locator is one of these pages, with its dealers below its content.
 */
export async function contentPage(c: Context<MarketEnv>): Promise<Response> {
  const key = c.var.available.pageOf(c.req.param('page') ?? '')?.key
  if (!key) {
    const moved = movedPageRedirect(c)
    if (moved) return moved
    throw PageError.pageNotFound(c.req.url)
  }
  const parts = await contentPageParts(c, key)
  if (key === 'dealer-locator') return sendDealerLocator(c, parts.page, parts.chrome, parts.head)
  const form = LEAD_FORMS[key]
  if (form) return sendLeadFormPage(c, parts, form)
  return sendPage(c, <ContentPageLayout {...parts} />, { caching: Caching.shared })
}
