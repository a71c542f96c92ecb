import { DiscountLine } from '../../cart/cart-discount'
import type { Context } from 'hono'
import type { ReactNode } from 'react'
import { Caching } from '../../cache/answer-caching'
import { CheckoutLayout } from '../../components/checkout-layout'
import type { HeadProps } from '../../components/page-head'
import type { Chrome, MarketView } from '../../components/view'
import { configOf } from '../../config'
import type { MarketEnv } from '../../env'
import { PageError } from '../../errors/page-error'
import { issueFormToken, MIN_FILL_SECONDS, readFormToken, type FormToken } from '../../forms/form-token'
import { formatMoney } from '../../i18n/formats'
import type { Market } from '../../market/market'
import { sendPage, viewOf } from '../../render/respond'
import type { Cart } from '../../../contract/cart-schemas'
import type { Checkout } from '../../../contract/checkout-schemas'
import { type CheckoutCalls, checkoutCalls } from '../../upstream/contract/checkout'
import { sizeName } from '../../catalogue/size-name'
import { loadChrome } from '../chrome'

/** A cart's code as checkout paths carry it; anything else is a 404 before any call. */
const CART_CODE = /^[A-Za-z0-9_-]{32}$/

/** The cart code of a checkout path, or 404 "Page Not Found". */
export function cartCodeOf(c: Context<MarketEnv>): string {
  const code = c.req.param('code') ?? ''
  if (!CART_CODE.test(code)) throw PageError.pageNotFound(c.req.url)
  return code
}

/** The checkout calls of the logged-in customer (the route's guard made sure there is one), in the page's market. */
export function checkoutOf(c: Context<MarketEnv>): CheckoutCalls {
  const viewer = c.var.viewer
  if (!viewer) throw PageError.pageNotFound(c.req.url)
  return checkoutCalls(c.var.upstream.forMarket(c.var.market).withToken(viewer.token))
}

/** The customer's checkout of a cart code: another customer's, an anonymous one's or an unknown code is a 404. */
export async function readCheckout(c: Context<MarketEnv>, code: string): Promise<Checkout> {
  const checkout = await checkoutOf(c).read(code)
  if (!checkout) throw PageError.pageNotFound(c.req.url)
  return checkout
}

/** The paths of one checkout: its form, review and result, and the market's cart. */
export function checkoutPaths(market: Pick<Market, 'segment'>, code: string) {
  const base = `/${market.segment}/checkout/${code}`
  return { form: base, review: `${base}/review`, result: `${base}/result`, cart: `/${market.segment}/cart` }
}

/** What each checkout form's token is signed for: the customer, the cart and the step, so no other form's token fits. */
const tokenScope = (c: Context<MarketEnv>, code: string, step: 'choices' | 'place' | 'retry') =>
  `checkout:${c.var.viewer?.user.id ?? 0}:${code}:${step}`

/** A new token for a checkout form; `ready` makes it count as already filled in (a form given back to send again). */
export async function checkoutToken(
  c: Context<MarketEnv>,
  code: string,
  step: 'choices' | 'place' | 'retry',
  ready = false,
): Promise<string> {
  const secret = c.env.SESSION_SECRET
  if (!secret) throw PageError.maintenance()
  return issueFormToken(secret, tokenScope(c, code, step), ready ? Date.now() - MIN_FILL_SECONDS * 1000 : Date.now())
}

/** The posted token of a checkout form: null when missing, forged, or another form's (the request is then a 400). */
export async function postedToken(
  c: Context<MarketEnv>,
  code: string,
  step: 'choices' | 'place' | 'retry',
  value: string | undefined,
): Promise<FormToken | null> {
  const secret = c.env.SESSION_SECRET
  if (!secret) throw PageError.maintenance()
  return readFormToken(secret, tokenScope(c, code, step), value, {
    minFillSeconds: configOf(c.env).formMinFillSeconds,
    previous: c.env.SESSION_SECRET_PREVIOUS,
  })
}

/** The money of the market, as the cart page writes it (`4290,00 €`, `$4,699.99`, `CHF 4390.00`). */
export const moneyOf = (view: MarketView, currency: Cart['currency']) => (minor: number) =>
  formatMoney(minor, currency, view.market)

/** A VAT rate in basis points as the market writes a percentage (`22 %`, `8,1 %`). */
export const percentOf = (rate: number, market: Market) =>
  new Intl.NumberFormat(market.tag, { style: 'percent', maximumFractionDigits: 2 }).format(rate / 10_000)

/** Where the customer is in the checkout: the three steps, the current one marked. */
export function CheckoutSteps({
  view,
  current,
  paths,
}: {
  view: MarketView
  current: 1 | 2 | 3
  paths: ReturnType<typeof checkoutPaths>
}) {
  const { t } = view
  const steps = [
    { n: 1, label: t('checkout.step_details'), href: paths.form },
    { n: 2, label: t('checkout.step_review'), href: paths.review },
    { n: 3, label: t('checkout.step_payment'), href: null },
  ] as const
  return (
    <nav className="checkout-steps" aria-label={t('checkout.steps')}>
      <ol>
        {steps.map((step) => (
          <li
            key={step.n}
            className={step.n === current ? 'current' : step.n < current ? 'done' : undefined}
            aria-current={step.n === current ? 'step' : undefined}
          >
            <span className="checkout-step-number" aria-hidden="true">
              {step.n}
            </span>
            {step.n < current && step.href ? <a href={step.href}>{step.label}</a> : <span>{step.label}</span>}
          </li>
        ))}
      </ol>
    </nav>
  )
}

/** The amounts of a checkout as the summary lists them: items, the discount, delivery, VAT (added or included), total. */
export function CheckoutAmounts({ view, checkout }: { view: MarketView; checkout: Checkout }) {
  const { t } = view
  const market = view.market
  const money = moneyOf(view, checkout.cart.currency)
  const { amounts } = checkout
  const pickup = checkout.choices.delivery?.method === 'pickup'
  return (
    <>
      <dl className="checkout-amounts">
        <div>
          <dt>{t('checkout.items_amount')}</dt>
          <dd>{money(amounts.items)}</dd>
        </div>
        <DiscountLine view={view} cart={checkout.cart} amount={amounts.discount} />
        <div>
          <dt>{pickup ? t('checkout.pickup_amount') : t('cart.delivery')}</dt>
          <dd>{amounts.delivery === 0 ? t('cart.delivery_free') : money(amounts.delivery)}</dd>
        </div>
        {!amounts.vat.included && (
          <div>
            <dt>
              {amounts.vat.rate === null
                ? t('cart.tax')
                : t('cart.vat_added', { rate: percentOf(amounts.vat.rate, market) })}
            </dt>
            <dd>{amounts.vat.amount === null ? t('checkout.tax_from_address') : money(amounts.vat.amount)}</dd>
          </div>
        )}
        <div className="checkout-total">
          <dt>{t('cart.total')}</dt>
          <dd>{money(amounts.total)}</dd>
        </div>
      </dl>
      {amounts.vat.included && amounts.vat.amount !== null && amounts.vat.rate !== null && (
        <p className="checkout-note">
          {t('cart.vat_included', { rate: percentOf(amounts.vat.rate, market), amount: money(amounts.vat.amount) })}
        </p>
      )}
      {amounts.vat.included && amounts.vat.rate === null && (
        <p className="checkout-note">{t('cart.vat_included_plain')}</p>
      )}
    </>
  )
}

/** A line's variant in the customer's language (`M · Rosso`), its size isolated so it keeps its place in RTL text. */
export const variantText = (view: MarketView, line: Cart['lines'][number]) =>
  view.t('cart.variant', {
    size: `\u2068${sizeName(view.t, line.variant.size)}\u2069`,
    colour: line.variant.colour_name,
  })

/**
 * The order summary beside the form (sticky on desktop; on phones `CheckoutSummaryToggle` shows it at the top
 * instead): each line small, then the amounts.
 */
export function CheckoutSummary({
  view,
  checkout,
  headingId = 'checkout-summary-title',
  children,
}: {
  view: MarketView
  checkout: Checkout
  /** The heading's id: the phone's copy at the top of the page has its own. */
  headingId?: string
  children?: ReactNode
}) {
  const { t } = view
  const money = moneyOf(view, checkout.cart.currency)
  return (
    <aside className="checkout-summary" aria-labelledby={headingId}>
      <h2 id={headingId}>{t('cart.summary')}</h2>
      <ul className="checkout-summary-lines">
        {checkout.cart.lines.map((line) => (
          <li key={line.sku}>
            {line.product.image ? (
              <img src={line.product.image} alt="" width={72} height={48} loading="lazy" decoding="async" />
            ) : (
              <span className="cart-line-noimage" aria-hidden="true" />
            )}
            <span className="checkout-summary-name">
              {line.product.name}
              <span>
                {variantText(view, line)} · {t('checkout.quantity_short', { count: String(line.quantity) })}
              </span>
            </span>
            <span className="checkout-summary-total">{money(line.line_total)}</span>
          </li>
        ))}
      </ul>
      <CheckoutAmounts view={view} checkout={checkout} />
      {children}
    </aside>
  )
}

type CheckoutPageProps = { view: MarketView; chrome: Chrome; head: HeadProps }

/**
 * Sends a checkout page in the focused layout (logo, help, legal links: components/checkout-layout.tsx): private and `no-store` (the customer's cart, addresses and order), never indexed, no
 * tracking at all and no script (everything works as plain forms), titled `{title} · {brand}`.
 */
export async function sendCheckoutPage(
  c: Context<MarketEnv>,
  title: { key: string; params?: Record<string, string> },
  page: (props: CheckoutPageProps) => ReactNode,
  {
    status = 200,
    headers,
    refreshSeconds,
  }: { status?: 200 | 409 | 422 | 503; headers?: Record<string, string>; refreshSeconds?: number } = {},
): Promise<Response> {
  const { market, t } = c.var
  const chrome = await loadChrome(c)
  const view = viewOf(c, t, market, false)
  const head: HeadProps = {
    title: `${t(title.key, title.params)} · ${t('brand.name')}`,
    robots: 'noindex',
    refreshSeconds,
  }
  return sendPage(
    c,
    <CheckoutLayout view={view} head={head} chrome={chrome}>
      {page({ view, chrome, head })}
    </CheckoutLayout>,
    {
      status,
      caching: Caching.private,
      kind: 'checkout',
      tracking: false,
      headers: { 'X-Robots-Tag': 'noindex, nofollow', ...headers },
    },
  )
}

/**
 * The order summary at the top of the page on a phone: a `<details>` closed by default whose summary line says the
 * total, so the form comes first and the amount is always in view (the stylesheet shows it below 60rem only, where
 * the summary beside the form is hidden).
 */
export function CheckoutSummaryToggle({ view, checkout }: { view: MarketView; checkout: Checkout }) {
  const { t } = view
  return (
    <details className="checkout-summary-toggle">
      <summary>
        <span>{t('checkout.summary_show')}</span>
        <strong>{moneyOf(view, checkout.cart.currency)(checkout.amounts.total)}</strong>
      </summary>
      <CheckoutSummary view={view} checkout={checkout} headingId="checkout-summary-top-title" />
    </details>
  )
}
