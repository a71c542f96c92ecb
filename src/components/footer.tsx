import type { PageLink } from '../market/availability'
import { useContext } from 'react'
import { textsOf } from '../i18n/translator'
import { marketLabel } from '../market/picker'
import { Kept } from '../render/kept'
import { PageTrackingContext } from '../tracking/page-tracking'
import { CONSENT_SETTINGS_ID } from './consent-banner'
import { NewsletterForm } from './newsletter-form'
import { SocialLinks } from './social-links'
import type { Chrome, MarketView } from './view'

/**
 * The content pages the footer lists under "Legal" rather than "Explore" (pageLinks keys), in this order: who runs the
 * site, how it sells, what happens after a purchase, then the visitor's data.
 */
export const LEGAL_PAGES: readonly string[] = [
  'legal-notice',
  'terms-of-sale',
  'delivery-returns',
  'warranty',
  'privacy-policy',
  'cookie-policy',
]

/**
 * The page footer: the newsletter sign-up and the brand's social links, the site's content pages, the legal pages and
 * the whistleblower channel, cookie settings (where the page tracks) and the market.
 */
export function Footer({ view, chrome }: { view: MarketView; chrome: Chrome }) {
  const { t, market } = view
  const tracking = useContext(PageTrackingContext)
  const base = `/${market.segment}`
  const pages = chrome.available.pageLinks()
  const link = ({ key, slug }: PageLink) => (
    <li key={key}>
      <a href={`${base}/${slug}`}>{t(`pages.${key}`)}</a>
    </li>
  )
  const year = new Date().getUTCFullYear()
  const legal = LEGAL_PAGES.flatMap((key) => pages.filter((page) => page.key === key))
  const privacyUrl = chrome.available.pageUrl('privacy-policy')
  return (
    <footer className="site-footer">
      {(chrome.newsletterToken || chrome.socialLinks !== false) && (
        <div className={chrome.newsletterToken ? 'footer-top' : 'footer-top social-only'}>
          {chrome.newsletterToken && (
            // The same for every visitor of the market and language but the form's token, written in (decision 087).
            <Kept
              part="footer-newsletter"
              deps={[...textsOf(t), market.segment, privacyUrl]}
              values={{ token: chrome.newsletterToken }}
            >
              {({ token }) => (
                <section className="footer-newsletter" aria-labelledby="footer-newsletter-title">
                  <h2 id="footer-newsletter-title">{t('newsletter.title')}</h2>
                  <p>{t('newsletter.intro')}</p>
                  <NewsletterForm
                    view={view}
                    token={token}
                    privacyUrl={privacyUrl}
                    labelledBy="footer-newsletter-title"
                    idPrefix="footer-newsletter"
                  />
                </section>
              )}
            </Kept>
          )}
          {chrome.socialLinks !== false && (
            <Kept part="footer-social" deps={textsOf(t)}>
              {() => <SocialLinks view={view} />}
            </Kept>
          )}
        </div>
      )}
      <Kept
        part="footer-columns"
        deps={[
          ...textsOf(t),
          base,
          pages,
          chrome.available.has('whistleblower'),
          tracking !== null,
          market.site,
          market.locale,
          year,
        ]}
      >
        {() => (
          <>
            <nav aria-label={t('footer.explore')} className="footer-columns">
              <div>
                <h2>{t('footer.explore')}</h2>
                <ul>{pages.filter(({ key }) => !LEGAL_PAGES.includes(key)).map(link)}</ul>
              </div>
              <div>
                <h2>{t('footer.legal')}</h2>
                <ul>
                  {legal.map(link)}
                  {chrome.available.has('whistleblower') && (
                    <li>
                      <a href={`${base}/whistleblower-form`}>{t('footer.whistleblower')}</a>
                    </li>
                  )}
                  {tracking && (
                    <li>
                      <a href={`#${CONSENT_SETTINGS_ID}`}>{t('footer.cookie_settings')}</a>
                    </li>
                  )}
                </ul>
              </div>
            </nav>
            <div className="footer-bottom">
              <p>{t('footer.market', { market: marketLabel(market.site, market.locale) })}</p>
              <p>{t('footer.copyright', { year })}</p>
            </div>
          </>
        )}
      </Kept>
    </footer>
  )
}
