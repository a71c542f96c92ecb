import type { ReactNode } from 'react'
import { Document } from './document'
import { LEGAL_PAGES } from './footer'
import { Logo } from './logo'
import type { HeadProps } from './page-head'
import { Toast } from './toast'
import type { Chrome, MarketView } from './view'

/**
 * The focused layout of checkout (its steps, payment and result; docs/decisions/057): the logo leading home, help
 * (the market's contact page), the page, and a slim footer of the legal pages. No market picker, search, main
 * navigation or newsletter: nothing leads away from paying but the way back.
 */
export function CheckoutLayout({
  view,
  head,
  chrome,
  children,
}: {
  view: MarketView
  head: HeadProps
  chrome: Chrome
  children: ReactNode
}) {
  const { t, market } = view
  const base = `/${market.segment}`
  const pages = chrome.available.pageLinks()
  const help = pages.find((page) => page.key === 'contact-us')
  const legal = LEGAL_PAGES.flatMap((key) => pages.filter((page) => page.key === key))
  return (
    <Document view={view} head={head} bodyClass="checkout-focused">
      <header className="checkout-header">
        <a className="checkout-home" href={base}>
          <Logo title={t('brand.name')} />
        </a>
        {help && (
          <a className="checkout-help" href={`${base}/${help.slug}`}>
            {t('checkout.help')}
          </a>
        )}
      </header>
      <main id="main" tabIndex={-1}>
        {children}
      </main>
      <footer className="checkout-footer">
        {legal.length > 0 && (
          <nav aria-label={t('footer.legal')}>
            <ul>
              {legal.map(({ key, slug }) => (
                <li key={key}>
                  <a href={`${base}/${slug}`}>{t(`pages.${key}`)}</a>
                </li>
              ))}
            </ul>
          </nav>
        )}
        <p>{t('footer.copyright', { year: new Date().getUTCFullYear() })}</p>
      </footer>
      <Toast view={view} />
    </Document>
  )
}
