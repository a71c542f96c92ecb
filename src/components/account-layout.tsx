import type { ReactNode } from 'react'
import { DefaultLayout } from './layouts'
import type { HeadProps } from './page-head'
import type { Chrome, MarketView } from './view'

/**
 * The account's sections, in the navigation's order: their path below `/{m}/my-account`, their title's key and, for
 * those of an area the backend may lack, their page in the availability rule (src/upstream/areas.ts).
 */
export const ACCOUNT_SECTIONS = [
  { path: '', label: 'account.overview', page: null },
  { path: '/orders', label: 'orders.title', page: 'account-orders' },
  { path: '/bikes', label: 'bike.title', page: 'account-bikes' },
  { path: '/addresses', label: 'address.title', page: 'account-addresses' },
  { path: '/profile', label: 'profile.title', page: 'account-profile' },
  { path: '/newsletter', label: 'account_newsletter.title', page: 'newsletter' },
] as const

/** `/{m}/my-account` of the view's market. */
export const accountBase = (view: MarketView) => `/${view.market.segment}/my-account`

/**
 * The default layout with the account's navigation beside the page: the sections the availability rule allows, but
 * those `unlinked` names (their `path`), whose data the backend answered it does not hold.
 */
export function AccountLayout({
  view,
  chrome,
  head,
  unlinked = [],
  children,
}: {
  view: MarketView
  chrome: Chrome
  head: HeadProps
  unlinked?: readonly string[]
  children: ReactNode
}) {
  const base = accountBase(view)
  return (
    <DefaultLayout view={view} head={head} chrome={chrome}>
      <div className="account">
        <nav className="account-nav" aria-label={view.t('account.navigation')}>
          <ul>
            {ACCOUNT_SECTIONS.filter(
              ({ path, page }) => (!page || chrome.available.has(page)) && !unlinked.includes(path),
            ).map(({ path, label }) => {
              const href = base + path
              const current = view.path === href || (path !== '' && view.path.startsWith(`${href}/`))
              return (
                <li key={path}>
                  <a href={href} aria-current={current ? 'page' : undefined}>
                    {view.t(label)}
                  </a>
                </li>
              )
            })}
          </ul>
        </nav>
        <div className="account-main">{children}</div>
      </div>
    </DefaultLayout>
  )
}
