import { type ReactNode, useContext } from 'react'
import { assets } from '../render/assets'
import { InlineScript } from '../render/inline-scripts'
import { ScriptNonce } from '../render/nonce'
import { PageTrackingContext } from '../tracking/page-tracking'
import { tagManagerSnippet, trackersJson } from '../tracking/snippet'
import { ConsentBanner } from './consent-banner'
import { type HeadProps, PageHead } from './page-head'
import type { View } from './view'

/**
 * The HTML document every page shares: language and direction, head, stylesheet and (where used) the islands' entry,
 * whose nonce the answer gives, if any (render/nonce.ts). On a page that tracks (the answer's PageTracking), Consent Mode and
 * the tag manager come first in the head, the allowed trackers' loader after, and the consent banner first in the body.
 */
export function Document({ view, head, bodyClass, children }: { view: View; head: HeadProps; bodyClass?: string; children: ReactNode }) {
  const nonce = useContext(ScriptNonce)
  const tracking = useContext(PageTrackingContext)
  return (
    <html lang={view.locale} dir={view.dir}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {tracking && <InlineScript code={tagManagerSnippet(tracking.tagManager, tracking.consent)} />}
        <PageHead {...head} />
        <link rel="icon" href="/favicon.ico" sizes="32x32" />
        <link rel="icon" href="/logo.svg" type="image/svg+xml" />
        <link rel="stylesheet" href={assets.css} />
        {head.stylesheets?.map((href) => <link key={href} rel="stylesheet" href={href} />)}
        {view.hydrate && assets.preload.map((href) => <link key={href} rel="modulepreload" href={href} />)}
        {view.hydrate && <script type="module" src={assets.entry} nonce={nonce} />}
        {tracking && tracking.trackers.length > 0 && (
          <>
            <script type="application/json" id="trackers" nonce={nonce} dangerouslySetInnerHTML={{ __html: trackersJson(tracking.trackers) }} />
            <script type="module" src={assets.tracking} nonce={nonce} />
          </>
        )}
      </head>
      <body className={bodyClass}>
        {tracking && <ConsentBanner view={view} tracking={tracking} />}
        {children}
      </body>
    </html>
  )
}
