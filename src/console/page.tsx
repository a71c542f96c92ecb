import type { Context } from 'hono'
import type { ReactNode } from 'react'
import { Caching } from '../cache/answer-caching'
import type { AppEnv } from '../env'
import { type SendOptions, sendPage } from '../render/respond'
import type { Staff } from '../../contract/staff-schemas'
import { CONSOLE_LOGOUT_PATH, CONSOLE_PATH, ROLE_LABELS, sectionPath, sectionsOf } from './sections'

/** The console's stylesheet (public/console.css): its own, the site's is not loaded. */
export const CONSOLE_STYLESHEET = '/console.css'

/** What search engines are told about every console answer (with `<meta name="robots">`). */
export const CONSOLE_ROBOTS = 'noindex, nofollow'

export type ConsolePage = {
  /** The page's heading and `<title>` ("… · Staff console"). */
  title: string
  body: ReactNode
  status?: SendOptions['status']
  headers?: Record<string, string>
}

/**
 * Answers a console page: the console's layout (header with the signed-in staff member's name and role, the nav of
 * their role's sections, the sign-out button; none of it before sign-in), English, no script at all, the console's
 * Content-Security-Policy (`kind: 'console'`), never cached, never indexed.
 *
 * @example
 * return sendConsolePage(c, { title: 'Leads', body: <LeadsTable leads={leads} /> })
 */
export function sendConsolePage(c: Context<AppEnv>, { title, body, status, headers }: ConsolePage): Promise<Response> {
  const staff = (c.get('staff') as Staff | undefined) ?? null
  const path = new URL(c.req.url).pathname
  return sendPage(
    c,
    <ConsoleDocument title={title} staff={staff} path={path}>
      {body}
    </ConsoleDocument>,
    {
      kind: 'console',
      tracking: false,
      caching: Caching.never,
      status,
      headers: { 'X-Robots-Tag': CONSOLE_ROBOTS, ...headers },
    },
  )
}

/** The console's HTML document: skip link, header, nav, the page's heading and body. */
export function ConsoleDocument({
  title,
  staff,
  path,
  children,
}: {
  title: string
  staff: Staff | null
  path: string
  children: ReactNode
}) {
  return (
    <html lang="en" dir="ltr">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content={CONSOLE_ROBOTS} />
        <meta name="referrer" content="same-origin" />
        <title>{title === 'Staff console' ? title : `${title} · Staff console`}</title>
        <link rel="icon" href="/favicon.ico" sizes="32x32" />
        <link rel="stylesheet" href={CONSOLE_STYLESHEET} />
      </head>
      <body className="console">
        <a className="skip" href="#main">
          Skip to content
        </a>
        <header className="console-header">
          <a className="console-brand" href={CONSOLE_PATH}>
            Aurora Cycles <span>Staff console</span>
          </a>
          {staff && (
            <div className="console-who">
              <span>
                {staff.name} <span className="role">{ROLE_LABELS[staff.role]}</span>
              </span>
              <form method="post" action={CONSOLE_LOGOUT_PATH}>
                <button type="submit" className="button quiet">
                  Sign out
                </button>
              </form>
            </div>
          )}
        </header>
        {staff && (
          <nav className="console-nav" aria-label="Console">
            <ul>
              <li>
                <a href={CONSOLE_PATH} aria-current={path === CONSOLE_PATH ? 'page' : undefined}>
                  Home
                </a>
              </li>
              {sectionsOf(staff.role).map((section) => {
                const href = sectionPath(section.slug)
                const current = path === href ? 'page' : path.startsWith(`${href}/`) ? 'location' : undefined
                return (
                  <li key={section.slug}>
                    <a href={href} aria-current={current}>
                      {section.label}
                    </a>
                  </li>
                )
              })}
            </ul>
          </nav>
        )}
        <main id="main" className="console-main">
          <h1>{title}</h1>
          {children}
        </main>
      </body>
    </html>
  )
}
