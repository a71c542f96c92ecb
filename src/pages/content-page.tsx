import type { Context } from 'hono'
import type { ReactNode } from 'react'
import { Caching } from '../cache/answer-caching'
import { ContentBlocks } from '../components/content-blocks'
import { DefaultLayout } from '../components/layouts'
import { type HeadProps, headFromSeo } from '../components/page-head'
import type { Chrome, View } from '../components/view'
import type { AppEnv } from '../env'
import { PageError } from '../errors/page-error'
import { movedPageRedirect } from '../market/moved-page'
import { sendPage, viewOf } from '../render/respond'
import { pageAlternates } from '../seo/alternates'
import { canonicalUrl } from '../seo/canonical'
import { modelSeo } from '../seo/page-seo'
import type { ContentPage as Page } from '../upstream/schemas'
import { loadChrome } from './chrome'
import { sendDealerLocator } from './dealer-locator'
import { LEAD_FORMS } from './lead-forms'
import { sendLeadFormPage } from './lead-form'

/** What every rendering of a content page needs: the page itself, the header and footer, the view and the head. */
export type ContentPageParts = { view: View; chrome: Chrome; head: HeadProps; page: Page }

/** A content page of the site (about us, contact, test ride…): title, summary, its blocks, then its form if any. */
export function ContentPageLayout({ view, chrome, head, page, children }: ContentPageParts & { children?: ReactNode }) {
  return (
    <DefaultLayout view={view} head={head} chrome={chrome}>
      <article className="content-page">
        <h1>{page.title}</h1>
        {page.summary && <p className="lead">{page.summary}</p>}
        <ContentBlocks blocks={page.blocks} />
      </article>
      {children}
    </DefaultLayout>
  )
}

/**
 * `GET /{m}/{page}`: the slug is looked up in the market's pageLinks (slugs differ per market and locale); a slug the
 * page had before is moved there (301, market/moved-page.ts); an unknown slug or a page without content is "Page Not Found"; an upstream failure with nothing cached is the app's 503. The dealer
 * locator is one of these pages, with its dealers below its content.
 */
export async function contentPage(c: Context<AppEnv>): Promise<Response> {
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

/** A content page's parts by its key (an available one): "Page Not Found" when it has no content. */
export async function contentPageParts(c: Context<AppEnv>, key: string): Promise<ContentPageParts> {
  const { market, api, available, t } = c.var
  const [page, chrome] = await Promise.all([api.content.page(key), loadChrome(c)])
  if (!page) throw PageError.pageNotFound(c.req.url)
  const view = viewOf(c, t, market)
  const seo = await modelSeo(api, 'Page', page.id)
  const head: HeadProps = {
    ...headFromSeo(seo, { title: `${page.title} · ${t.t('brand.name')}`, description: page.summary }, view.origin),
    canonical: canonicalUrl(view.origin, c.req.url),
    alternates: pageAlternates(chrome.sites, available, key, view.origin),
  }
  return { view, chrome, head, page }
}
