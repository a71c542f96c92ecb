import { type Context, Hono } from 'hono'
import type { AppEnv } from '../env'
import { PageError } from '../errors/page-error'
import { staffCalls } from '../upstream/contract/staff'
import { withoutDirectionControls } from '../../contract/direction-controls'
import type { OutboxMail } from '../../contract/staff-schemas'
import {
  ConsoleSelect,
  DataTable,
  DefinitionList,
  FiltersForm,
  newestFirst,
  Pager,
  Time,
  withQuery,
  Written,
} from './components'
import { consoleGate } from './guard'
import { queriedCursor } from './list-query'
import { sendConsolePage } from './page'
import { sectionPath } from './sections'

/** Outbox (editors): the mails the site sent or queued, newest first; one mail in full. */
export const outbox = new Hono<AppEnv>()
outbox.use(consoleGate('editor'))
outbox.get('/', outboxPage)
outbox.get('/:id', outboxMailPage)

const OUTBOX_PATH = sectionPath('outbox')

/** The kinds of mail the site sends, for the filter (a kind missing here is still listed without a filter). */
const MAIL_KINDS = [
  'test_ride_notice',
  'test_ride_acknowledgement',
  'dealer_notice',
  'dealer_acknowledgement',
  'distributor_notice',
  'distributor_acknowledgement',
  'job_notice',
  'job_acknowledgement',
  'contact_notice',
  'contact_acknowledgement',
  'password_reset',
  'email_confirmation',
  'account_exists',
  'newsletter_confirmation',
  'order_confirmation',
  'order_shipped',
  'order_refunded',
]

/** Where a mail is: as the API says, else read from its sending time (a backend that does not say). */
const stateOf = (mail: OutboxMail): 'queued' | 'sent' | 'failed' => mail.state ?? (mail.sent_at ? 'sent' : 'queued')

/** A mail's state in the list: sent with its time, failed with its reason, queued (with the last attempt's reason). */
function MailState({ mail }: { mail: OutboxMail }) {
  const state = stateOf(mail)
  if (state === 'sent') return mail.sent_at ? <Time at={mail.sent_at} /> : <span className="badge">Sent</span>
  if (state === 'failed')
    return (
      <>
        <span className="badge">Failed</span> {mail.failure}
      </>
    )
  return (
    <>
      <span className="badge">Queued</span>
      {mail.failure ? ` retrying after ${mail.failure}` : ''}
    </>
  )
}

const kindLabel = (kind: string) => kind.replace(/_/g, ' ').replace(/^./, (first) => first.toUpperCase())

const kindOf = (value: string | undefined) => (value && /^[a-z_]{1,40}$/.test(value) ? value : undefined)

/** `GET /_console/outbox?kind=&after=`: who, what, when, and whether it left. */
export async function outboxPage(c: Context<AppEnv>): Promise<Response> {
  const kind = kindOf(c.req.query('kind'))
  const after = queriedCursor(c.req.query('after'))
  const list = await staffCalls(c.var.staffApi).outbox({ kind, cursor: after })
  return sendConsolePage(c, {
    title: 'Outbox',
    body: (
      <>
        <FiltersForm action={OUTBOX_PATH} label="Filter the mails" clearHref={OUTBOX_PATH}>
          <ConsoleSelect
            label="Kind"
            name="kind"
            value={kind}
            options={MAIL_KINDS.map((value) => ({ value, label: kindLabel(value) }))}
          />
        </FiltersForm>
        <DataTable
          caption={newestFirst('Mails')}
          head={['Queued', 'Subject', 'To', 'Kind', 'State']}
          empty="No mail."
          rows={(list?.items ?? []).map((mail) => ({
            key: mail.id,
            cells: [
              <Time at={mail.created_at} />,
              <a href={withQuery(`${OUTBOX_PATH}/${mail.id}`, { kind, after })}>
                <Written>{mail.subject}</Written>
              </a>,
              <Written>{mail.recipient}</Written>,
              kindLabel(mail.kind),
              <MailState mail={mail} />,
            ],
          }))}
        />
        {list && (
          <Pager meta={list.meta} first={!after} href={(next) => withQuery(OUTBOX_PATH, { kind, after: next })} />
        )}
      </>
    ),
  })
}

/** `GET /_console/outbox/{id}`: one mail in full. */
export async function outboxMailPage(c: Context<AppEnv>): Promise<Response> {
  const id = c.req.param('id') ?? ''
  if (!/^[0-9]{1,9}$/.test(id) || Number(id) < 1) throw PageError.notFound('')
  const kind = kindOf(c.req.query('kind'))
  const hinted = queriedCursor(c.req.query('after'))
  const mail = await staffCalls(c.var.staffApi).mail(Number(id))
  if (!mail) throw PageError.notFound('')
  return sendConsolePage(c, {
    // The page's title cannot isolate a part of itself: a mail stored with a visitor's direction control shows without it.
    title: withoutDirectionControls(mail.subject),
    body: (
      <>
        <p>
          <a href={withQuery(OUTBOX_PATH, { kind, after: hinted })}>All mails</a>
        </p>
        <DefinitionList
          items={[
            ['To', <Written>{mail.recipient}</Written>],
            ['Kind', kindLabel(mail.kind)],
            ['Queued', <Time at={mail.created_at} />],
            ['State', <MailState mail={mail} />],
            [
              'Sent',
              mail.sent_at ? <Time at={mail.sent_at} /> : stateOf(mail) === 'failed' ? 'Never' : 'Not yet (queued)',
            ],
            ...(mail.provider_id ? [['Mail service id', mail.provider_id] as [string, string]] : []),
            ...(mail.attempts ? [['Attempts failed', String(mail.attempts)] as [string, string]] : []),
          ]}
        />
        <h2>Text</h2>
        <pre className="mail">{mail.body}</pre>
      </>
    ),
  })
}
