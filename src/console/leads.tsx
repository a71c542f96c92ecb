import { type Context, Hono } from 'hono'
import type { ReactNode } from 'react'
import type { AppEnv } from '../env'
import { PageError } from '../errors/page-error'
import english from '../i18n/en.json'
import { logEvent } from '../ops/log'
import { sendRedirect } from '../render/respond'
import { type SubmissionFilters, staffCalls } from '../upstream/contract/staff'
import { CV_KEY_FORMAT, SUBMISSION_KINDS, type SubmissionKind } from '../../contract/form-schemas'
import type { Submission, SubmissionSummary } from '../../contract/staff-schemas'
import {
  ButtonForm,
  DataTable,
  DateField,
  DefinitionList,
  FiltersForm,
  Flash,
  MarketSelect,
  newestFirst,
  Pager,
  ConsoleSelect,
  Time,
  withQuery,
  Written,
} from './components'
import { consoleGate } from './guard'
import { queriedDay, queriedMarket, queriedCursor } from './list-query'
import { sendConsolePage } from './page'
import { sectionPath } from './sections'

/**
 * Leads (editors): the lead-form submissions by market, kind, date and whether handled; one in full with its CV; mark
 * handled. The CV is streamed from R2 as a download, never shown inline.
 */
export const leads = new Hono<AppEnv>()
leads.use(consoleGate('editor'))
leads.get('/', leadsPage)
leads.get('/:id', leadPage)
leads.get('/:id/cv', leadCv)
leads.post('/:id/handled', markLeadHandled)

const LEADS_PATH = sectionPath('leads')

/** How each kind of submission is named in the console. */
export const KIND_LABELS: Record<SubmissionKind, string> = {
  test_ride: 'Test ride',
  dealer: 'Dealer application',
  distributor: 'Distributor application',
  job: 'Job application',
  contact: 'Contact message',
}

/** The list's filters as the query gave them; anything malformed is left out (the form shows it unset). */
function filtersOf(c: Context<AppEnv>): SubmissionFilters {
  const { market, kind, from, to, handled, after } = c.req.query()
  return {
    site: queriedMarket(market),
    kind: (SUBMISSION_KINDS as readonly string[]).includes(kind ?? '') ? (kind as SubmissionKind) : undefined,
    from: queriedDay(from),
    to: queriedDay(to),
    handled: handled === 'yes' ? true : handled === 'no' ? false : undefined,
    cursor: queriedCursor(after),
  }
}

/** `GET /_console/leads?market=&kind=&from=&to=&handled=&after=`. */
export async function leadsPage(c: Context<AppEnv>): Promise<Response> {
  const filters = filtersOf(c)
  const api = staffCalls(c.var.staffApi)
  const [list, markets] = await Promise.all([api.submissions(filters), api.markets()])
  const items = list?.items ?? []
  const query = {
    market: filters.site,
    kind: filters.kind,
    from: filters.from,
    to: filters.to,
    handled: filters.handled === undefined ? undefined : filters.handled ? 'yes' : 'no',
  }
  const names = new Map(markets.map((m) => [m.country, m.name]))
  return sendConsolePage(c, {
    title: 'Leads',
    body: (
      <>
        <FiltersForm action={LEADS_PATH} label="Filter the leads" clearHref={LEADS_PATH}>
          <MarketSelect markets={markets} value={filters.site} />
          <ConsoleSelect
            label="Kind"
            name="kind"
            value={filters.kind}
            options={SUBMISSION_KINDS.map((kind) => ({ value: kind, label: KIND_LABELS[kind] }))}
          />
          <DateField label="Received from" name="from" value={filters.from} />
          <DateField label="Received until" name="to" value={filters.to} />
          <ConsoleSelect
            label="Handled"
            name="handled"
            value={query.handled}
            options={[
              { value: 'no', label: 'Not yet' },
              { value: 'yes', label: 'Handled' },
            ]}
          />
        </FiltersForm>
        <DataTable
          caption={newestFirst('Leads')}
          head={['Received', 'Reference', 'Kind', 'Market', 'E-mail', 'Handled']}
          empty="No lead matches these filters."
          rows={items.map((lead) => ({ key: lead.id, cells: leadCells(lead, names) }))}
        />
        {list && (
          <Pager
            meta={list.meta}
            first={!filters.cursor}
            href={(after) => withQuery(LEADS_PATH, { ...query, after })}
          />
        )}
      </>
    ),
  })
}

function leadCells(lead: SubmissionSummary, names: Map<string, string>): ReactNode[] {
  return [
    <Time at={lead.created_at} />,
    <a href={`${LEADS_PATH}/${lead.id}`}>{lead.reference}</a>,
    KIND_LABELS[lead.kind],
    <>
      <bdi>{names.get(lead.site) ?? lead.site.toUpperCase()}</bdi>
      {` (${lead.site}-${lead.locale})`}
    </>,
    <Written>{lead.email}</Written>,
    lead.handled_at ? <span className="badge ok">Handled</span> : <span className="badge warn">Open</span>,
  ]
}

/** A lead's id from the path, or the console's 404. */
function leadId(c: Context<AppEnv>): number {
  const id = c.req.param('id') ?? ''
  if (!/^[0-9]{1,9}$/.test(id) || Number(id) < 1) throw PageError.notFound('')
  return Number(id)
}

async function submissionOr404(c: Context<AppEnv>, id: number): Promise<Submission> {
  const submission = await staffCalls(c.var.staffApi).submission(id)
  if (!submission) throw PageError.notFound('')
  return submission
}

/** `GET /_console/leads/{id}`: every field in full with readable labels, the CV's download, who handled it and when. */
export async function leadPage(c: Context<AppEnv>): Promise<Response> {
  const [submission, markets] = await Promise.all([submissionOr404(c, leadId(c)), staffCalls(c.var.staffApi).markets()])
  const marketName = markets.find((market) => market.country === submission.site)?.name ?? submission.site.toUpperCase()
  const handledNow = c.req.query('done') === 'handled'
  return sendConsolePage(c, {
    title: `${KIND_LABELS[submission.kind]} ${submission.reference}`,
    body: (
      <>
        <p>
          <a href={LEADS_PATH}>All leads</a>
        </p>
        {handledNow && <Flash>Marked as handled.</Flash>}
        <DefinitionList
          items={[
            ['Reference', submission.reference],
            ['Kind', KIND_LABELS[submission.kind]],
            [
              'Market',
              <>
                <bdi>{marketName}</bdi>
                {` (${submission.site}-${submission.locale})`}
              </>,
            ],
            ['Received', <Time at={submission.created_at} />],
            [
              'Handled',
              submission.handled_at ? (
                <>
                  {<Time at={submission.handled_at} />} by {submission.handled_by ?? 'a former staff member'}
                </>
              ) : (
                'Not yet'
              ),
            ],
          ]}
        />
        <h2>What was sent</h2>
        <DefinitionList items={fieldItems(submission)} />
        {submission.file_key && (
          <p>
            <a className="button" href={`${LEADS_PATH}/${submission.id}/cv`} download>
              Download the CV
            </a>
          </p>
        )}
        {!submission.handled_at && (
          <ButtonForm action={`${LEADS_PATH}/${submission.id}/handled`} label="Mark as handled" />
        )}
      </>
    ),
  })
}

/** The form's own English labels (src/i18n/en.json `forms.field`), and those of the fields it names otherwise. */
const FIELD_LABELS: Record<string, string> = {
  ...english.forms.field,
  product: 'Model',
  country_code: 'Country',
  consent: 'Agreed to the privacy notice',
  kind: 'Application for',
}
const CHOICES: Record<string, Record<string, string>> = {
  topic: english.forms.topic,
  part_of_day: english.forms.part_of_day,
  services: english.forms.service,
  yearly_volume: english.forms.volume,
}

/** A stored field's label: the form's own, else its name in words. */
const labelOf = (name: string) =>
  FIELD_LABELS[name] ?? name.replace(/_/g, ' ').replace(/^./, (first) => first.toUpperCase())

/**
 * A stored field's value: choices by their English label, yes/no, lists joined, a CV by its file's name, type and
 * size; what the visitor wrote (and a CV's file name) isolated.
 */
function answerCell(name: string, value: unknown): ReactNode {
  if (value === null || value === undefined || value === '') return null
  if (typeof value === 'boolean') return value ? 'Yes' : 'No'
  if (Array.isArray(value)) return value.map((item) => CHOICES[name]?.[String(item)] ?? String(item)).join(', ')
  if (name === 'cv' && typeof value === 'object') {
    const cv = value as { name?: unknown; type?: unknown; size?: unknown }
    const size = typeof cv.size === 'number' ? `${(cv.size / 1024).toFixed(0)} KB` : ''
    const facts = [typeof cv.type === 'string' ? cv.type.toUpperCase() : null, size].filter(Boolean).join(' · ')
    return typeof cv.name === 'string' && cv.name ? (
      <>
        <Written>{cv.name}</Written>
        {facts && ` · ${facts}`}
      </>
    ) : (
      facts
    )
  }
  if (typeof value === 'object') return <Written>{JSON.stringify(value)}</Written>
  return CHOICES[name]?.[String(value)] ?? <Written>{String(value)}</Written>
}

function fieldItems(submission: Submission): Array<[string, ReactNode]> {
  return Object.entries(submission.fields)
    .filter(([name]) => name !== 'submission_key')
    .map(([name, value]): [string, ReactNode] => [
      labelOf(name),
      submission.kind === 'job' && name === 'position'
        ? value === null
          ? 'Open application'
          : `Open position no. ${String(value)}`
        : answerCell(name, value),
    ])
}

/** The extension a stored CV is downloaded with, by its stored type. */
const CV_EXTENSIONS: Record<string, string> = {
  'application/pdf': 'pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.oasis.opendocument.text': 'odt',
}

/**
 * `GET /_console/leads/{id}/cv`: the CV of a job application from R2, as a download named after the reference
 * (`JA-4K7M-Q2XD-cv.pdf`; nothing the applicant typed goes into the header), with its stored type, never kept, never
 * sniffed. 404 when the submission has none, or it is gone (retention). Only a CV's key (`cv/<uuid>`) is read from
 * the bucket, whatever the API answers: never a whistleblower's sealed attachment (`wb/…`), nor anything else.
 */
export async function leadCv(c: Context<AppEnv>): Promise<Response> {
  const submission = await submissionOr404(c, leadId(c))
  if (submission.file_key && !CV_KEY_FORMAT.test(submission.file_key)) {
    logEvent('error', 'cv_key_invalid')
    throw PageError.notFound('')
  }
  const object = submission.file_key ? await c.env.FILES.get(submission.file_key) : null
  if (!object) throw PageError.notFound('')
  const type =
    object.httpMetadata?.contentType && CV_EXTENSIONS[object.httpMetadata.contentType]
      ? object.httpMetadata.contentType
      : 'application/octet-stream'
  const extension = CV_EXTENSIONS[type] ?? 'bin'
  return new Response(object.body, {
    headers: {
      'Content-Type': type,
      'Content-Length': String(object.size),
      'Content-Disposition': `attachment; filename="${submission.reference}-cv.${extension}"`,
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
      'X-Robots-Tag': 'noindex, nofollow',
    },
  })
}

/** `POST /_console/leads/{id}/handled`: marks it handled (recorded upstream with who and when), back to the lead. */
export async function markLeadHandled(c: Context<AppEnv>): Promise<Response> {
  const id = leadId(c)
  const handled = await staffCalls(c.var.staffApi).markHandled(id)
  if (!handled) throw PageError.notFound('')
  return sendRedirect(c, `${LEADS_PATH}/${id}?done=handled`, 303)
}
