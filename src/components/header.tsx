import MarketPicker from '../../client/islands/market-picker'
import MobileMenu from '../../client/islands/mobile-menu'
import { IslandNames } from '../../client/islands/names'
import { siteUrl } from '../market/market'
import { pickerProps } from '../market/picker'
import { LOGOUT_PATH } from '../auth/paths'
import { loginUrl } from '../auth/redirect-target'
import { Island } from './island'
import { Logo } from './logo'
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
                    {chrome.productTypes.map((type) => (
                      <li key={`type-${type.id}`} className="product-menu-type">
                        <a href={`${base}/products/type/${type.slug}`}>{type.name}</a>
                      </li>
                    ))}
                    <li className="product-menu-type">
                      <a href={`${base}/products`}>{t('header.all_types')}</a>
                    </li>
                  </ul>
                </details>
              </li>
            )}
            {market &&
              chrome.available.headerLinks().map(({ key, slug }) => (
                <li key={key}>
                  <a href={`${base}/${slug}`} aria-current={view.path === `${base}/${slug}` ? 'page' : undefined}>
                    {t(`pages.${key}`)}
                  </a>
                </li>
              ))}
          </ul>
        </nav>
        <div className="header-tools">
          {market && chrome.available.has('search') && (
            <form method="get" action={`${base}/search/all`} role="search" className="header-search" aria-label={t('header.search_label')}>
              <label htmlFor="header-q" className="visually-hidden">
                {t('header.search_label')}
              </label>
              <input id="header-q" type="search" name="q" maxLength={100} placeholder={t('header.search_placeholder')} />
              <button type="submit" className="search-button">
                <span aria-hidden="true">⌕</span>
                <span className="visually-hidden">{t('search.submit')}</span>
              </button>
            </form>
          )}
          {market && chrome.available.has('cart') && <CartLink view={view} base={base} count={chrome.cartCount ?? null} />}
          {chrome.available.has('account') && <AccountLinks view={view} home={home} />}
          <Island name={IslandNames.marketPicker} component={MarketPicker} props={pickerProps(chrome.sites, market, t, view.path)} />
        </div>
      </div>
    </header>
  )
}

/**
 * The cart link with its count: none for a visitor without a cart (the same shared page for everyone), the number of
 * items otherwise. The "add to cart" island updates `[data-cart-count]` and its spoken text without a reload.
 */
function CartLink({ view, base, count }: { view: View; base: string; count: number | null }) {
  const { t } = view
  const current = view.path === `${base}/cart`
  return (
    <a className="cart-link" href={`${base}/cart`} aria-current={current ? 'page' : undefined} data-cart-link=""
      data-count-template={t('cart.header_count', { count: '{{count}}' })}>
      <svg className="cart-icon" aria-hidden="true" width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.6">
        <path d="M5 8h14l-1.2 11.2a1 1 0 0 1-1 .8H7.2a1 1 0 0 1-1-.8L5 8Z" />
        <path d="M9 8V6a3 3 0 0 1 6 0v2" />
      </svg>
      <span className="cart-link-label">{t('header.cart')}</span>
      <span className="cart-count" data-cart-count="" aria-hidden="true" hidden={!count}>
        {count || ''}
      </span>
      <span className="visually-hidden" data-cart-count-text="">
        {count ? t('cart.header_count', { count: String(count) }) : ''}
      </span>
    </a>
  )
}

/** Log in (coming back to this page), or the logged-in visitor's account and the logout button (a POST). */
function AccountLinks({ view, home }: { view: View; home: string }) {
  const { t, market, viewer } = view
  if (!viewer) {
    return (
      <a className="login-link" href={loginUrl(view.path)}>
        {t('header.login')}
      </a>
    )
  }
  return (
    <>
      {market && (
        <a className="login-link" href={`/${market.segment}/my-account`}>
          {t('header.my_account')}
        </a>
      )}
      <form method="post" action={LOGOUT_PATH} className="logout-form">
        <input type="hidden" name="redirect" value={home} />
        <button type="submit" className="link-button">
          {t('header.logout')}
        </button>
      </form>
    </>
  )
}
