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

/** The error layout: dark, the logo, the message; no script at all. */
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
