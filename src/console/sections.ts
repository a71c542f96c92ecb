import type { StaffRole } from '../../contract/staff-schemas'

/** Where the console lives. */
export const CONSOLE_PATH = '/_console'
export const CONSOLE_LOGIN_PATH = `${CONSOLE_PATH}/login`
export const CONSOLE_LOGOUT_PATH = `${CONSOLE_PATH}/logout`

/** A part of the console: its path under `/_console`, who may open it, its label in the nav and a line on the home page. */
export type ConsoleSection = { slug: string; role: StaffRole; label: string; summary: string }

/**
 * The console's sections, in the nav's order. A new section is one line here (its nav entry and home-page line) and
 * one `consoleApp.route('/{slug}', …)` in src/console/app.ts; the section's sub-app guards itself with
 * `consoleGate(role)` (src/console/guard.ts).
 */
export const CONSOLE_SECTIONS: readonly ConsoleSection[] = [
  {
    slug: 'cases',
    role: 'case_handler',
    label: 'Cases',
    summary: 'Whistleblower reports: read them, acknowledge, write to the reporter, close.',
  },
  {
    slug: 'leads',
    role: 'editor',
    label: 'Leads',
    summary: 'What visitors sent through the lead forms, by market, kind and date; mark them handled.',
  },
  {
    slug: 'orders',
    role: 'editor',
    label: 'Orders',
    summary: 'Orders by market, state and date: mark a bank transfer paid, ship, cancel, refund.',
  },
  { slug: 'outbox', role: 'editor', label: 'Outbox', summary: 'The mails the site sent or queued.' },
  {
    slug: 'markets',
    role: 'editor',
    label: 'Markets',
    summary: 'Switch maintenance and the lead forms of each market.',
  },
  {
    slug: 'discount-codes',
    role: 'editor',
    label: 'Discount codes',
    summary: "Create each market's discount codes, see their uses, disable them.",
  },
  { slug: 'purge', role: 'editor', label: 'Purge', summary: "Empty one market's cache, or everything's." },
]

/** The sections a role may open. */
export const sectionsOf = (role: StaffRole) => CONSOLE_SECTIONS.filter((section) => section.role === role)

/** The path of a section. */
export const sectionPath = (slug: string) => `${CONSOLE_PATH}/${slug}`

/** How a role is named on screen. */
export const ROLE_LABELS: Record<StaffRole, string> = { case_handler: 'Case handler', editor: 'Editor' }
