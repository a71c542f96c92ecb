import MarketPicker from '../../client/islands/market-picker'
import MobileMenu from '../../client/islands/mobile-menu'
import { IslandNames } from '../../client/islands/names'
import { headerPageLinks } from '../market/feature-switches'
import { siteUrl } from '../market/market'
import { pickerProps } from '../market/picker'
import { Island } from './island'
import { Logo } from './logo'
import { isFeatureOn } from '../pages/chrome'
import type { Chrome, View } from './view'

const NAV_ID = 'site-nav'

/** The page header: logo, product menu, the site's content pages, login and the market picker. */
export function Header({ view, chrome }: { view: View; chrome: Chrome }) {
  const { t, market } = view
  const home = market ? siteUrl(market.site, market.locale) : '/'
  const base = market ? `/${market.segment}` : ''
  return (
    <header className="site-header">
      <a className="skip-link" href="#main">
        {t('common.skip_to_content')}
      </a>
      <div className="header-bar">
        <a className="brand" href={home}>
          <Logo title={t('brand.name')} />
        </a>
        <Island
          name={IslandNames.mobileMenu}
          component={MobileMenu}
          props={{ controls: NAV_ID, openLabel: t('header.open_menu'), closeLabel: t('header.close_menu') }}
        />
        <nav id={NAV_ID} className="site-nav" aria-label={t('header.main_navigation')}>
          <ul>
            {market && chrome.productMenu.length > 0 && (
              <li>
                <details className="product-menu">
                  <summary>{t('header.products')}</summary>
                  <ul>
                    {chrome.productMenu.map((product) => (
                      <li key={product.id}>
                        <a href={`${base}/products/${product.slug}`}>
                          <span className="product-menu-name">{product.name}</span>
                          {product.tagline && <span className="product-menu-tagline">{product.tagline}</span>}
                        </a>
                      </li>
                    ))}
                  </ul>
                </details>
              </li>
            )}
            {market &&
              headerPageLinks(market.site).map(({ key, slug }) => (
                <li key={key}>
                  <a href={`${base}/${slug}`} aria-current={view.path === `${base}/${slug}` ? 'page' : undefined}>
                    {t(`pages.${key}`)}
                  </a>
                </li>
              ))}
          </ul>
        </nav>
        <div className="header-tools">
          {isFeatureOn(chrome, 'customer_login') && (
            <a className="login-link" href="/login">
              {t('header.login')}
            </a>
          )}
          <Island name={IslandNames.marketPicker} component={MarketPicker} props={pickerProps(chrome.sites, market, t)} />
        </div>
      </div>
    </header>
  )
}
