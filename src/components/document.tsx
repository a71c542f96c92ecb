import { type ReactNode, useContext } from 'react'
import { assets } from '../render/assets'
import { ScriptNonce } from '../render/nonce'
import { type HeadProps, PageHead } from './page-head'
import type { View } from './view'

/**
 * The HTML document every page shares: language and direction, head, stylesheet and (where used) the islands' entry,
 * whose nonce the answer gives (render/nonce.ts).
 */
export function Document({ view, head, bodyClass, children }: { view: View; head: HeadProps; bodyClass?: string; children: ReactNode }) {
  const nonce = useContext(ScriptNonce)
  return (
    <html lang={view.locale} dir={view.dir}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <PageHead {...head} />
        <link rel="icon" href="/favicon.ico" sizes="32x32" />
        <link rel="icon" href="/logo.svg" type="image/svg+xml" />
        <link rel="stylesheet" href={assets.css} />
        {head.stylesheets?.map((href) => <link key={href} rel="stylesheet" href={href} />)}
        {view.hydrate && assets.preload.map((href) => <link key={href} rel="modulepreload" href={href} />)}
        {view.hydrate && <script type="module" src={assets.entry} nonce={nonce} />}
      </head>
      <body className={bodyClass}>{children}</body>
    </html>
  )
}
