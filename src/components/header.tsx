import MarketPicker from './market-picker'
import MobileMenu from './mobile-menu'
import { siteUrl } from '../market/market'
import { pickerProps } from '../market/picker'
import { LOGOUT_PATH } from '../auth/paths'
import { loginUrl } from '../auth/redirect-target'
import { textsOf } from '../i18n/translator'
import { Kept } from '../render/kept'
import { Logo } from './logo'
import type { Chrome, MarketView, View } from './view'

const NAV_ID = 'site-nav'

/** A content page's short name in the bar ("Dealers" for "Find a dealer"), else its page name. */
function navLabel(t: View['t'], key: string): string {
  const short = t(`header.nav.${key}`)
  return short === `header.nav.${key}` ? t(`pages.${key}`) : short
}

/**
 * The page header, one row at every width (docs/decisions: the header): the logo, the main navigation (the product
 * menu, the content pages, the market picker) and the tools (search, account, cart). On phones the navigation is a
 * full-height sheet behind the menu button, the last of the tools. Every disclosure works without JavaScript
 * (`<details>`, the menu button's `#site-nav` target); with it, client/header.ts closes them on Escape (focus back on
 * their button), on an outside click or when the focus leaves them, and keeps one open at a time.
 */
export function Header({ view, chrome }: { view: MarketView; chrome: Chrome }) {
  const { t, market } = view
  const home = siteUrl(market.site, market.locale)
  const base = `/${market.segment}`
  // What the kept parts' texts depend on (src/render/kept.tsx): the language and the market's texts.
  const texts = textsOf(t)
  const links = chrome.available.headerLinks()
  // The link of the page the visitor is on, if it is one of the header's.
  const current = links.find(({ slug }) => view.path === `${base}/${slug}`)
  const account = chrome.available.has('account')
  const cart = chrome.available.has('cart')
  return (
    <header className="site-header" data-header="">
      <a className="skip-link" href="#main">
        {t('common.skip_to_content')}
      </a>
      <div className="header-bar">
        <Kept part="header-brand" deps={[...texts, home]}>
          {() => (
            <a className="brand" href={home}>
              <Logo title={t('brand.name')} />
            </a>
          )}
        </Kept>
        <nav id={NAV_ID} className="site-nav" aria-label={t('header.main_navigation')}>
          <ul className="nav-links">
            {chrome.productMenu.length + chrome.productTypes.length > 0 && (
              <Kept
                part="header-product-menu"
                deps={[...texts, base, chrome.productTypes, chrome.productMenu, chrome.available.has('products')]}
              >
                {() => (
                  <li className="nav-products">
                    <ProductMenu view={view} chrome={chrome} base={base} />
                  </li>
                )}
              </Kept>
            )}
            <Kept part="header-links" deps={[...texts, base, links, current?.key ?? null]}>
              {() =>
                links.map(({ key, slug }) => (
                  <li key={key}>
                    <a href={`${base}/${slug}`} aria-current={key === current?.key ? 'page' : undefined}>
                      {navLabel(t, key)}
                    </a>
                  </li>
                ))
              }
            </Kept>
          </ul>
          <Kept
            part="header-market-picker"
            deps={[...texts, chrome.sites, market.site, market.segment]}
            values={{ path: view.path }}
          >
            {({ path }) => (
              <div className="nav-picker">
                <MarketPicker {...pickerProps(chrome.sites, market, t, path)} />
              </div>
            )}
          </Kept>
        </nav>
        <div className="header-tools">
          {chrome.available.has('search') && (
            <Kept part="header-search" deps={[...texts, base]}>
              {() => <HeaderSearch view={view} base={base} />}
            </Kept>
          )}
          {view.viewer === null && !chrome.cartCount ? (
            // A visitor not logged in and without a cart: the same tools for every such visitor of the market and
            // language, the login link's way back (this page) written in (decision 087).
            <Kept
              part="header-tools-anonymous"
              deps={[...texts, base, account, cart, view.path === `${base}/cart`]}
              values={{ login: loginUrl(view.path) }}
            >
              {({ login }) => (
                <>
                  {account && <LoginLink view={view} href={login} />}
                  {cart && <CartLink view={view} base={base} count={null} />}
                  <MobileMenu controls={NAV_ID} openLabel={t('header.open_menu')} closeLabel={t('header.close_menu')} />
                </>
              )}
            </Kept>
          ) : (
            <>
              {account && <AccountMenu view={view} home={home} />}
              {cart && <CartLink view={view} base={base} count={chrome.cartCount ?? null} />}
              <MobileMenu controls={NAV_ID} openLabel={t('header.open_menu')} closeLabel={t('header.close_menu')} />
            </>
          )}
        </div>
      </div>
    </header>
  )
}

/**
 * The product menu: a disclosure whose panel shows the market's product types with their pictures (a panel under
 * the header on wide screens, the top of the menu sheet on phones), the bikes of the menu call and "all products".
 */
function ProductMenu({ view, chrome, base }: { view: View; chrome: Chrome; base: string }) {
  const { t } = view
  return (
    <details className="product-menu">
      <summary>
        {t('header.products')}
        <Chevron />
      </summary>
      <div className="product-panel">
        <div className="product-panel-inner">
          {chrome.productTypes.length > 0 && (
            <ul className="type-cards">
              {chrome.productTypes.map((type) => (
                <li key={`type-${type.id}`} className="product-menu-type">
                  <a className="type-card" href={`${base}/products/type/${type.slug}`}>
                    <span className="type-card-picture">
                      {type.image && (
                        <img src={type.image} alt="" width={480} height={320} loading="lazy" decoding="async" />
                      )}
                    </span>
                    <span className="type-card-name">{type.name}</span>
                  </a>
                </li>
              ))}
            </ul>
          )}
          <div className="panel-products">
            {chrome.productMenu.length > 0 && (
              <>
                <p className="panel-title">{t('home.featured_products')}</p>
                <ul>
                  {chrome.productMenu.slice(0, MENU_PRODUCTS_SHOWN).map((product) => (
                    <li key={product.id}>
                      <a href={`${base}/products/${product.slug}`}>{product.name}</a>
                    </li>
                  ))}
                </ul>
              </>
            )}
            {chrome.available.has('products') && (
              <a className="panel-all" href={`${base}/products`}>
                {t('header.all_types')}
                <span aria-hidden="true" className="panel-all-arrow">
                  →
                </span>
              </a>
            )}
          </div>
        </div>
      </div>
    </details>
  )
}

/** How many of the menu's products the header's panel names; the listing behind "all types" has the rest. */
const MENU_PRODUCTS_SHOWN = 8

/**
 * The search: a button that reveals a full-width field under the header (a `<details>`: no script needed). Once the
 * field has the focus, a lazy script (client/search-suggestions.ts) makes it a combobox over the market's suggestion
 * index (`/{m}/search/suggestions.json`), listing what the visitor may mean as they type.
 */
function HeaderSearch({ view, base }: { view: View; base: string }) {
  const { t } = view
  return (
    <details className="header-search">
      <summary className="icon-button">
        <SearchIcon />
        <span className="visually-hidden">{t('header.search')}</span>
      </summary>
      <div className="header-panel search-panel">
        <form
          method="get"
          action={`${base}/search/all`}
          role="search"
          className="search-panel-form"
          aria-label={t('header.search_label')}
        >
          <label htmlFor="header-q" className="visually-hidden">
            {t('header.search_label')}
          </label>
          <div className="search-field">
            {/* A text field, not `type="search"`: HTML allows the combobox role only on a text field. */}
            <input
              id="header-q"
              type="text"
              inputMode="search"
              enterKeyHint="search"
              name="q"
              maxLength={100}
              placeholder={t('header.search_placeholder')}
              data-autofocus=""
              autoComplete="off"
              role="combobox"
              aria-autocomplete="list"
              aria-expanded="false"
              aria-controls="header-suggestions"
              data-suggest={`${base}/search/suggestions.json`}
            />
            <div
              id="header-suggestions"
              className="search-suggestions"
              role="listbox"
              aria-label={t('search.suggestions')}
              data-kinds={JSON.stringify({
                product: t('search.kind_product'),
                news: t('search.kind_news'),
                dealer: t('search.kind_dealer'),
                page: t('search.kind_page'),
              })}
              hidden
            />
            <button type="submit" className="button search-submit">
              <SearchIcon />
              <span className="search-submit-label">{t('search.submit')}</span>
            </button>
          </div>
        </form>
      </div>
    </details>
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
    <a
      className="cart-link icon-button"
      href={`${base}/cart`}
      aria-current={current ? 'page' : undefined}
      data-cart-link=""
      data-count-template={t('cart.header_count', { count: '{{count}}' })}
    >
      <svg
        className="cart-icon"
        aria-hidden="true"
        width="22"
        height="22"
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.6"
      >
        <path d="M5 8h14l-1.2 11.2a1 1 0 0 1-1 .8H7.2a1 1 0 0 1-1-.8L5 8Z" />
        <path d="M9 8V6a3 3 0 0 1 6 0v2" />
      </svg>
      <span className="cart-link-label visually-hidden">{t('header.cart')}</span>
      <span className="cart-count" data-cart-count="" aria-hidden="true">
        {count || ''}
      </span>
      <span className="visually-hidden" data-cart-count-text="">
        {count ? t('cart.header_count', { count: String(count) }) : ''}
      </span>
    </a>
  )
}

/**
 * The account button. Logged out: a link to log in (coming back to this page), marked `data-account` for the page
 * cache, which puts the logged-in menu there for a visitor with a session (src/page-cache/personal.ts). Logged in: a
 * disclosure with the visitor's name, their account and the logout button (a POST).
 */
export function AccountMenu({ view, home }: { view: MarketView; home: string }) {
  const { t, market, viewer } = view
  if (!viewer) return <LoginLink view={view} href={loginUrl(view.path)} />
  return (
    <details className="account-menu">
      <summary className="icon-button">
        <PersonIcon />
        <span className="account-dot" aria-hidden="true" />
        <span className="visually-hidden">{t('header.my_account')}</span>
      </summary>
      <div className="header-panel account-panel">
        <p className="account-panel-name">{t('header.logged_in_as', { name: `\u2068${viewer.name}\u2069` })}</p>
        <a className="account-panel-link" href={`/${market.segment}/my-account`}>
          {t('header.my_account')}
        </a>
        <form method="post" action={LOGOUT_PATH} className="logout-form">
          <input type="hidden" name="redirect" value={home} />
          <button type="submit" className="link-button">
            {t('header.logout')}
          </button>
        </form>
      </div>
    </details>
  )
}

/** The logged-out account button: a link to log in, coming back to `href`'s page (`loginUrl`). */
function LoginLink({ view, href }: { view: View; href: string }) {
  return (
    <a className="login-link icon-button" href={href} data-account="">
      <PersonIcon />
      <span className="visually-hidden">{view.t('header.login')}</span>
    </a>
  )
}

function SearchIcon() {
  return (
    <svg
      className="tool-icon"
      aria-hidden="true"
      width="22"
      height="22"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.7"
      strokeLinecap="round"
    >
      <circle cx="10.5" cy="10.5" r="6.5" />
      <path d="m15.5 15.5 5 5" />
    </svg>
  )
}

function PersonIcon() {
  return (
    <svg
      className="tool-icon"
      aria-hidden="true"
      width="22"
      height="22"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.6"
      strokeLinecap="round"
    >
      <circle cx="12" cy="8.5" r="4" />
      <path d="M4.5 20.5a7.5 7.5 0 0 1 15 0" />
    </svg>
  )
}

function Chevron() {
  return (
    <svg
      className="chevron"
      aria-hidden="true"
      width="12"
      height="12"
      viewBox="0 0 12 12"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.6"
      strokeLinecap="round"
    >
      <path d="m2.5 4.5 3.5 3.5 3.5-3.5" />
    </svg>
  )
}
