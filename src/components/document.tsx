import { type ReactNode, useContext } from 'react'
import { assets } from '../render/assets'
import { firstPaintFont } from '../render/first-paint-font'
import { InlineScript } from '../render/inline-scripts'
import { ScriptNonce } from '../render/nonce'
import { PageTrackingContext } from '../tracking/page-tracking'
import { tagManagerSnippet, trackersJson } from '../tracking/snippet'
import { ConsentBanner } from './consent-banner'
import { HeadData, type HeadProps, PageHead, pageHeadDeps } from './page-head'
import { Kept } from '../render/kept'
import type { View } from './view'

/**
 * The inline script that starts a page's modules once its body is parsed: each as a module script it creates, which
 * `'strict-dynamic'` allows because this script is allowed (by the answer's nonce, or by its hash on a page the page
 * cache keeps), so no host or `'self'` source is needed for them. Their files are preloaded from the head.
 */
export function moduleLoader(files: readonly string[]): string {
  return `${JSON.stringify(files)}.forEach(function(s){var e=document.createElement('script');e.type='module';e.src=s;document.head.appendChild(e)})`
}

/**
 * The HTML document every page shares: language and direction, head, the brand typeface's face the page paints with
 * first (preloaded), stylesheet and (where used) the islands' entry,
 * started last by `moduleLoader`. On a page that tracks (the answer's PageTracking), Consent Mode and
 * the tag manager come first in the head, the allowed trackers' loader after, and the consent banner first in the body.
 */
export function Document({
  view,
  head,
  bodyClass,
  children,
}: {
  view: View
  head: HeadProps
  bodyClass?: string
  children: ReactNode
}) {
  const nonce = useContext(ScriptNonce)
  const tracking = useContext(PageTrackingContext)
  const trackers = tracking !== null && tracking.trackers.length > 0
  // The modules the page starts: the islands' entry, and the trackers' loader once a visitor allowed one.
  const started = [...(view.hydrate ? [assets.entry] : []), ...(trackers ? [assets.tracking] : [])]
  const modules = [...(view.hydrate ? [assets.entry, ...assets.preload] : []), ...(trackers ? [assets.tracking] : [])]
  const headElements = (canonical: string | undefined) => (
    <>
      <PageHead {...head} canonical={canonical} />
      <link rel="icon" href="/favicon.ico" sizes="32x32" />
      <link rel="icon" href="/logo.svg" type="image/svg+xml" />
      <link rel="preload" href={firstPaintFont(view.locale)} as="font" type="font/woff2" crossOrigin="" />
      {modules.map((href) => (
        <link key={href} rel="modulepreload" href={href} />
      ))}
    </>
  )
  return (
    <html lang={view.locale} dir={view.dir}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {tracking && <InlineScript code={tagManagerSnippet(tracking.tagManager, tracking.consent)} />}
        {/* The head's hoisted elements, the same for every visitor of the page but its canonical URL, written in: kept
            as bytes (decision 087), but on a page no search engine indexes (an account's, an order's, a search's: a
            visitor's own or one of many), which is rendered each time. React writes them first in the head. */}
        {head.robots?.includes('noindex') ? (
          headElements(head.canonical || undefined)
        ) : (
          <Kept
            part="document-head"
            hoisted
            deps={[...pageHeadDeps(head), view.locale, ...modules]}
            values={{ canonical: head.canonical || '' }}
          >
            {({ canonical }) => headElements(head.canonical ? canonical : undefined)}
          </Kept>
        )}
        <HeadData robots={head.robots} structuredData={head.structuredData} />
        <link rel="stylesheet" href={assets.css} />
        {head.stylesheets?.map((href) => (
          <link key={href} rel="stylesheet" href={href} />
        ))}
        {trackers && (
          <script
            type="application/json"
            id="trackers"
            nonce={nonce}
            // biome-ignore lint/security/noDangerouslySetInnerHtml: JSON data for the tracker loader, escaped by trackersJson (no `<` left)
            dangerouslySetInnerHTML={{ __html: trackersJson(tracking.trackers) }}
          />
        )}
      </head>
      <body className={bodyClass}>
        {tracking && <ConsentBanner view={view} tracking={tracking} />}
        {children}
        {started.length > 0 && <InlineScript code={moduleLoader(started)} />}
      </body>
    </html>
  )
}
