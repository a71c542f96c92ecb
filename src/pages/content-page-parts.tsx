import type { Context } from 'hono'
import type { ReactNode } from 'react'
import { ContentBlocks } from '../components/content-blocks'
import { DefaultLayout } from '../components/layouts'
import { type HeadProps, headFromSeo } from '../components/page-head'
import type { Chrome, MarketView } from '../components/view'
import type { MarketEnv } from '../env'
import { PageError } from '../errors/page-error'
import { viewOf } from '../render/respond'
import { pageAlternates } from '../seo/alternates'
import { canonicalUrl } from '../seo/canonical'
import { modelSeo } from '../seo/page-seo'
import type { ContentPage as Page } from '../../contract/schemas'
import { loadChrome } from './chrome'

/** What every rendering of a content page needs: the page itself, the header and footer, the view and the head. */
export type ContentPageParts = { view: MarketView; chrome: Chrome; head: HeadProps; page: Page }

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
 * A lead form's page where the backend has no content pages (its form held by the embedded API): its label for a
 * title, no text (docs/decisions/041).
 */
const formPageOf = async (key: string, t: MarketEnv['Variables']['t']): Promise<Page> => ({
  id: 0,
  key,
  title: t(`pages.${key}`),
  summary: '',
  blocks: [],
})

/** A content page's parts by its key (an available one): "Page Not Found" when it has no content. */
export async function contentPageParts(c: Context<MarketEnv>, key: string): Promise<ContentPageParts> {
  const { market, api, available, areas, t } = c.var
  const [page, chrome] = await Promise.all([
    areas.served('content') ? api.content.page(key) : formPageOf(key, t),
    loadChrome(c),
  ])
  if (!page) throw PageError.pageNotFound(c.req.url)
  const view = viewOf(c, t, market)
  const seo = await modelSeo(api, 'Page', page.id)
  const head: HeadProps = {
    ...headFromSeo(seo, { title: `${page.title} · ${t('brand.name')}`, description: page.summary }, view.origin),
    canonical: canonicalUrl(view.origin, c.req.url),
    alternates: pageAlternates(chrome.sites, available, key, view.origin),
  }
  return { view, chrome, head, page }
}
