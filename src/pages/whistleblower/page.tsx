import type { Context } from 'hono'
import type { ReactElement, ReactNode } from 'react'
import { Caching } from '../../cache/answer-caching'
import { DefaultLayout } from '../../components/layouts'
import type { Chrome, MarketView } from '../../components/view'
import type { MarketEnv } from '../../env'
import type { ErrorStatus } from '../../errors/page-error'
import { Field, type FieldErrors } from '../../components/form-field'
import { ATTACHMENT_MAX_BYTES, ATTACHMENTS_MAX } from '../../../contract/whistleblower-schemas'
import { sendPage, viewOf } from '../../render/respond'
import { WHISTLEBLOWER_SLUG } from '../../whistleblower/no-trace'
import { loadChrome } from '../chrome'

/** The report form of a market and its follow-up page. */
export const reportPath = (segment: string) => `/${segment}/${WHISTLEBLOWER_SLUG}`
export const statusPath = (segment: string) => `/${segment}/${WHISTLEBLOWER_SLUG}/status`

/** What every page of the channel renders with: its view (texts, market) and the header's and footer's data. */
export type WhistleblowerParts = { view: MarketView; chrome: Chrome }

export async function whistleblowerParts(c: Context<MarketEnv>): Promise<WhistleblowerParts> {
  // No newsletter form and no social links in the channel's footer: nothing there invites a reporter to leave an
  // address, and the pages name no other origin than the national authority.
  const chrome = { ...(await loadChrome(c)), newsletterToken: null, socialLinks: false }
  return { view: viewOf(c, c.var.t, c.var.market), chrome }
}

/** The site's layout around a page of the channel: never indexed, titled by the page. */
export function WhistleblowerLayout({
  view,
  chrome,
  title,
  children,
}: WhistleblowerParts & { title: string; children: ReactNode }) {
  return (
    <DefaultLayout
      view={view}
      chrome={chrome}
      head={{ title: `${title} · ${view.t('brand.name')}`, robots: 'noindex, nofollow' }}
    >
      <div className="wb-page">{children}</div>
    </DefaultLayout>
  )
}

/**
 * Answers a page of the channel: nothing keeps it, no tracking of any kind, a policy that allows no origin but the
 * site's own (no Turnstile either: the honeypot and the signed fill time stop simple bots). The cookie, referrer and
 * log rules of every answer on these paths are src/whistleblower/no-trace.ts's.
 */
export const sendWhistleblowerPage = (
  c: Context<MarketEnv>,
  page: ReactElement,
  status: 200 | 404 | 409 | 422 | 429 | ErrorStatus = 200,
) => sendPage(c, page, { caching: Caching.never, kind: 'whistleblower', tracking: false, status })

/** A date of a case as the market writes it (`23 novembre 2026`). */
export const caseDate = (view: MarketView, iso: string) => {
  const date = new Date(iso.includes('T') ? iso : `${iso.replace(' ', 'T')}Z`)
  return Number.isNaN(date.getTime())
    ? iso
    : new Intl.DateTimeFormat(view.market.tag, { dateStyle: 'long', timeZone: 'UTC' }).format(date)
}

/** A file's size as the market writes it (`1.2 MB`, `340 kB`). */
export const fileSize = (view: MarketView, bytes: number) => {
  const tag = view.market.tag
  return bytes >= 1_000_000
    ? new Intl.NumberFormat(tag, { style: 'unit', unit: 'megabyte', maximumFractionDigits: 1 }).format(
        bytes / 1_000_000,
      )
    : new Intl.NumberFormat(tag, { style: 'unit', unit: 'kilobyte', maximumFractionDigits: 0 }).format(
        Math.max(1, Math.round(bytes / 1000)),
      )
}

/** A receipt code or passphrase as shown: large, monospace, a left-to-right run isolated from right-to-left text. */
export function Code({ children, id }: { children: string; id?: string }) {
  return (
    <bdi dir="ltr" className="wb-code" id={id}>
      {children}
    </bdi>
  )
}

/**
 * The attachments of a report or an answer (at most ATTACHMENTS_MAX, each ATTACHMENT_MAX_BYTES). A form that comes
 * back with messages cannot keep its files: `filesAgain` says so beside the field.
 */
export function AttachmentsField({
  view,
  errors,
  filesAgain,
}: {
  view: MarketView
  errors?: FieldErrors
  filesAgain: boolean
}) {
  const { t } = view
  const size = new Intl.NumberFormat(view.market.tag, { style: 'unit', unit: 'megabyte' }).format(
    ATTACHMENT_MAX_BYTES / 1024 / 1024,
  )
  return (
    <Field
      view={view}
      name="attachments"
      label={t('whistleblower.field.attachments')}
      hint={t('whistleblower.hint.attachments', { count: String(ATTACHMENTS_MAX), size: `\u2066${size}\u2069` })}
      optional
      errors={errors}
    >
      {({ id, invalid, describedBy }) => (
        <div className="wb-files">
          {filesAgain && (
            <p className="hint wb-files-again" id="field-attachments-again">
              {t('whistleblower.files_again')}
            </p>
          )}
          <input
            id={id}
            name="attachments"
            type="file"
            multiple
            aria-invalid={invalid || undefined}
            aria-describedby={
              [describedBy, filesAgain && 'field-attachments-again'].filter(Boolean).join(' ') || undefined
            }
          />
        </div>
      )}
    </Field>
  )
}
