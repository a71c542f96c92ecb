import type { ReactNode } from 'react'
import { DefaultLayout } from './layouts'
import type { HeadProps } from './page-head'
import type { Chrome, MarketView } from './view'

/** The account's sections, in the navigation's order: their path below `/{m}/my-account` and their title's key. */
export const ACCOUNT_SECTIONS = [
  { path: '', label: 'account.overview' },
  { path: '/orders', label: 'orders.title' },
  { path: '/bikes', label: 'bike.title' },
  { path: '/addresses', label: 'address.title' },
] as const

/** `/{m}/my-account` of the view's market. */
export const accountBase = (view: MarketView) => `/${view.market.segment}/my-account`

/**
 * The default layout with the account's navigation beside the page; `unlinked` names the sections (their `path`) the
 * navigation leaves out, whose data the backend does not serve.
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
            {ACCOUNT_SECTIONS.filter(({ path }) => !unlinked.includes(path)).map(({ path, label }) => {
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
