import { type Context, Hono } from 'hono'
import type { AppEnv } from '../env'
import { PageError } from '../errors/page-error'
import { readForm } from '../forms/read-form'
import { sendRedirect } from '../render/respond'
import { staffCalls } from '../upstream/contract/staff'
import { isRejection } from '../upstream/errors'
import { type DiscountCodeInput, type StaffDiscountCode, discountCodeInput } from '../../contract/discount-schemas'
import { minorDigits } from '../../contract/money'
import type { Site } from '../../contract/schemas'
import { ButtonForm, ConsoleSelect, DataTable, Flash, FiltersForm, Time, Written, withQuery } from './components'
import { consoleGate } from './guard'
import { sendConsolePage } from './page'
import { sectionPath } from './sections'

/**
 * Discount codes (editors; docs/decisions/051): the codes of every market or one, with their rules and uses; a form
 * that creates one (amounts in the market's currency, as written, turned into its minor units here); a button that
 * disables one. Each change is recorded upstream with who and when.
 */
export const discountCodes = new Hono<AppEnv>()
discountCodes.use(consoleGate('editor'))
discountCodes.get('/', discountCodesPage)
discountCodes.post('/', createDiscountCode)
discountCodes.post('/:id/disable', disableDiscountCode)

const CODES_PATH = sectionPath('discount-codes')

/** A market a code can be for: one that sells online, with its currency. */
type SellingMarket = { country: string; name: string; currency: string }

const formats = new Map<string, Intl.NumberFormat>()
/** Intl formats per isolate (contract/money.ts asks for a memo). */
function formatOf(key: string, build: () => Intl.NumberFormat): Intl.NumberFormat {
  const known = formats.get(key) ?? build()
  formats.set(key, known)
  return known
}

/** The markets that sell online, from the brand's cached site records. */
async function sellingMarkets(c: Context<AppEnv>): Promise<SellingMarket[]> {
  const sites: Site[] = await c.var.lookups.sites()
  return sites
    .filter((site) => site.settings.sells_online)
    .map((site) => ({ country: site.slug, name: site.country.name, currency: site.currency }))
}

/**
 * A decimal as written in a form (`12.50`, `12,5`, `20`) in units with `digits` decimals (1250 for 2), or null when it
 * is not one; whole numbers only, no float on the way.
 */
export function writtenToUnits(text: string | undefined, digits: number): number | null {
  const match = /^\s*([0-9]{1,9})(?:[.,]([0-9]+))?\s*$/.exec(text ?? '')
  if (!match) return null
  const fraction = match[2] ?? ''
  if (fraction.length > digits) return null
  return Number(match[1]) * 10 ** digits + Number(fraction.padEnd(digits, '0') || '0')
}

/** Minor units as the console writes them: `20.00 CHF`. */
const writtenMinor = (minor: number, currency: string) => {
  const digits = minorDigits(currency, formatOf)
  return `${(minor / 10 ** digits).toFixed(digits)} ${currency}`
}

/** What a code takes off, in words: `15 %` or `20.00 CHF`. */
const discountText = (code: StaffDiscountCode, currency: string) =>
  code.kind === 'percentage' ? `${code.value / 100} %` : writtenMinor(code.value, currency)

/** A `datetime-local` value (`2026-12-01T00:00`, UTC) as the API's time, or null when empty; undefined when wrong. */
const utcTime = (value: string | undefined): string | null | undefined => {
  if (!value) return null
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(value) ? `${value}:00Z` : undefined
}

/** A whole number of a form (a limit), null when empty, undefined when wrong. */
const wholeOf = (value: string | undefined): number | null | undefined => {
  if (!value) return null
  return /^[0-9]{1,6}$/.test(value) && Number(value) > 0 ? Number(value) : undefined
}

/** The new-code form's values turned into the API's input, or the first thing wrong with them. */
function inputOf(
  form: Record<string, string>,
  markets: SellingMarket[],
): { input: DiscountCodeInput } | { problem: string } {
  const market = markets.find((candidate) => candidate.country === form.market)
  if (!market) return { problem: 'Choose a market that sells online.' }
  const digits = minorDigits(market.currency, formatOf)
  const kind = form.kind === 'amount' ? 'amount' : 'percentage'
  const value = kind === 'percentage' ? writtenToUnits(form.value, 2) : writtenToUnits(form.value, digits)
  if (!value) return { problem: 'The discount must be a number above 0 (a percentage, or an amount in the currency).' }
  const minimum = form.minimum_subtotal ? writtenToUnits(form.minimum_subtotal, digits) : 0
  if (minimum === null) return { problem: 'The minimum subtotal must be an amount in the currency.' }
  const validFrom = utcTime(form.valid_from)
  const validUntil = utcTime(form.valid_until)
  const usageLimit = wholeOf(form.usage_limit)
  const perCustomer = wholeOf(form.per_customer_limit)
  if (validFrom === undefined || validUntil === undefined) return { problem: 'The dates must be dates and times.' }
  if (usageLimit === undefined || perCustomer === undefined)
    return { problem: 'A limit must be a whole number above 0.' }
  const input = discountCodeInput.safeParse({
    market: market.country,
    code: form.code ?? '',
    kind,
    value,
    minimum_subtotal: minimum,
    valid_from: validFrom,
    valid_until: validUntil,
    usage_limit: usageLimit,
    per_customer_limit: perCustomer,
  })
  if (input.success) return { input: input.data }
  const path = input.error.issues[0]?.path[0]
  return {
    problem:
      path === 'code'
        ? 'A code is 3 to 32 letters, digits, hyphens or underscores.'
        : path === 'value'
          ? 'A percentage is at most 100.'
          : 'The end of the validity must come after its start.',
  }
}

/** `GET /_console/discount-codes?market=`: the codes, newest first, and the form for a new one. */
export function discountCodesPage(c: Context<AppEnv>): Promise<Response> {
  return codesPage(c)
}

/** The codes page, with what was wrong with a new code's form when it was refused (422). */
async function codesPage(c: Context<AppEnv>, problem?: string, status: 200 | 422 = 200) {
  const markets = await sellingMarkets(c)
  const market = markets.find((candidate) => candidate.country === c.req.query('market'))?.country
  const codes = await staffCalls(c.var.staffApi).discountCodes(market)
  const currencyOf = (country: string) => markets.find((candidate) => candidate.country === country)?.currency ?? 'EUR'
  const created = c.req.query('created')
  const disabled = c.req.query('disabled')
  const options = markets.map((candidate) => ({
    value: candidate.country,
    label: `${candidate.name} (${candidate.currency})`,
  }))
  return sendConsolePage(c, {
    title: 'Discount codes',
    status,
    body: (
      <>
        {created && (
          <Flash>
            Code <Written>{created}</Written> created.
          </Flash>
        )}
        {disabled && (
          <Flash>
            Code <Written>{disabled}</Written> disabled: it no longer applies, in carts or at placement.
          </Flash>
        )}
        {problem && <Flash tone="error">{problem}</Flash>}
        <FiltersForm action={CODES_PATH} clearHref={CODES_PATH}>
          <ConsoleSelect label="Market" name="market" options={options} value={market} />
        </FiltersForm>
        <DataTable
          caption="Discount codes"
          empty="No discount codes yet."
          head={['Code', 'Market', 'Discount', 'Minimum subtotal', 'Valid', 'Uses', 'State', 'Action']}
          rows={codes.map((code) => ({
            key: code.id,
            cells: [
              <Written key="code">{code.code}</Written>,
              code.market,
              discountText(code, currencyOf(code.market)),
              code.minimum_subtotal > 0 ? writtenMinor(code.minimum_subtotal, currencyOf(code.market)) : '—',
              <>
                <Time at={code.valid_from} /> – <Time at={code.valid_until} />
              </>,
              `${code.uses}${code.usage_limit ? ` of ${code.usage_limit}` : ''}${code.per_customer_limit ? `, ${code.per_customer_limit} per customer` : ''}`,
              code.active ? <span className="badge ok">Active</span> : <span className="badge">Disabled</span>,
              code.active ? (
                <ButtonForm action={`${CODES_PATH}/${code.id}/disable`} label={`Disable ${code.code}`} tone="danger" />
              ) : (
                ''
              ),
            ],
          }))}
        />
        <NewCodeForm options={options} />
      </>
    ),
  })
}

/** The form of a new code. */
function NewCodeForm({ options }: { options: Array<{ value: string; label: string }> }) {
  return (
    <section aria-labelledby="new-code-title">
      <h2 id="new-code-title">New code</h2>
      <p className="hint">
        Amounts in the market's currency (20.00); a percentage comes off the items, never delivery. Times are UTC; the
        code applies from its start and until (not at) its end.
      </p>
      <form method="post" action={CODES_PATH} className="stacked">
        <ConsoleSelect label="Market" name="market" options={options} any={null} id="field-new-market" />
        <div className="field">
          <label htmlFor="field-code">Code</label>
          <input id="field-code" name="code" required maxLength={32} autoComplete="off" />
        </div>
        <fieldset>
          <legend>Kind</legend>
          <label className="check">
            <input type="radio" name="kind" value="percentage" defaultChecked /> Percentage of the items
          </label>
          <label className="check">
            <input type="radio" name="kind" value="amount" /> Fixed amount
          </label>
        </fieldset>
        {[
          ['value', 'Discount (percent or amount)', true],
          ['minimum_subtotal', 'Minimum subtotal', false],
        ].map(([name, label, required]) => (
          <div className="field" key={String(name)}>
            <label htmlFor={`field-${name}`}>{label}</label>
            <input id={`field-${name}`} name={String(name)} inputMode="decimal" required={Boolean(required)} />
          </div>
        ))}
        {[
          ['valid_from', 'Valid from (UTC)'],
          ['valid_until', 'Valid until (UTC)'],
        ].map(([name, label]) => (
          <div className="field" key={name}>
            <label htmlFor={`field-${name}`}>{label}</label>
            <input id={`field-${name}`} name={name} type="datetime-local" />
          </div>
        ))}
        {[
          ['usage_limit', 'Uses in all (empty: no limit)'],
          ['per_customer_limit', 'Uses per customer (empty: no limit)'],
        ].map(([name, label]) => (
          <div className="field" key={name}>
            <label htmlFor={`field-${name}`}>{label}</label>
            <input id={`field-${name}`} name={name} inputMode="numeric" />
          </div>
        ))}
        <button type="submit" className="button primary">
          Create the code
        </button>
      </form>
    </section>
  )
}

/** `POST /_console/discount-codes`: creates the code (recorded upstream), then back to the list saying so. */
export async function createDiscountCode(c: Context<AppEnv>): Promise<Response> {
  const outcome = inputOf(await readForm(c), await sellingMarkets(c))
  if ('problem' in outcome) return codesPage(c, outcome.problem, 422)
  try {
    const code = await staffCalls(c.var.staffApi).createDiscountCode(outcome.input)
    return sendRedirect(c, withQuery(CODES_PATH, { created: code?.code }), 303)
  } catch (error) {
    if (isRejection(error, 409)) return codesPage(c, 'This market already has that code.', 422)
    throw error
  }
}

/** `POST /_console/discount-codes/{id}/disable`: the code stops applying (recorded upstream); back to the list. */
export async function disableDiscountCode(c: Context<AppEnv>): Promise<Response> {
  const id = c.req.param('id') ?? ''
  if (!/^[0-9]{1,9}$/.test(id)) throw PageError.notFound('')
  const code = await staffCalls(c.var.staffApi).disableDiscountCode(Number(id))
  if (!code) throw PageError.notFound('')
  return sendRedirect(c, withQuery(CODES_PATH, { disabled: code.code }), 303)
}
