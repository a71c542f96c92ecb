import type { ReactNode } from 'react'
import { Document } from './document'
import { Footer } from './footer'
import { Header } from './header'
import { Logo } from './logo'
import { Toast } from './toast'
import type { HeadProps } from './page-head'
import type { Chrome, MarketView, View } from './view'

type LayoutProps = { view: View; head: HeadProps; children: ReactNode }

/** The default layout of a market's pages: header, the page, footer. */
export function DefaultLayout({ view, head, chrome, children }: LayoutProps & { view: MarketView; chrome: Chrome }) {
  return (
    <Document view={view} head={head}>
      <Header view={view} chrome={chrome} />
      <main id="main" tabIndex={-1}>
        {children}
      </main>
      <Footer view={view} chrome={chrome} />
      <Toast view={view} />
    </Document>
  )
}

/** The blank layout (landing, login): the page alone on a calm background. */
export function BlankLayout({ view, head, children }: LayoutProps) {
  return (
    <Document view={view} head={head} bodyClass="blank">
      <main id="main" className="blank-main">
        <Logo title={view.t('brand.name')} />
        {children}
      </main>
      <Toast view={view} />
    </Document>
  )
}

/**
 * The error page of a market (docs/decisions/056): the market's header (search included) and footer around the
 * message on its dark band, no script at all (the header's disclosures work without one).
 */
export function MarketErrorLayout({
  view,
  head,
  chrome,
  children,
}: LayoutProps & { view: MarketView; chrome: Chrome }) {
  return (
    <Document view={{ ...view, hydrate: false }} head={head} bodyClass="market-error">
      <Header view={view} chrome={chrome} />
      <main id="main" tabIndex={-1} className="error-page">
        <div className="error-page-body">{children}</div>
      </main>
      <Footer view={view} chrome={chrome} />
    </Document>
  )
}

/** The error layout outside a market (and under maintenance): dark, the logo, the message; no script at all. */
export function ErrorLayout({ view, head, children }: LayoutProps) {
  return (
    <Document view={{ ...view, hydrate: false }} head={head} bodyClass="error">
      <main id="main" className="error-main">
        <Logo title={view.t('brand.name')} />
        {children}
      </main>
    </Document>
  )
}
