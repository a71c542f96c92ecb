import type { Context } from 'hono'
import { type FieldErrors, Field, FormErrors } from '../../components/form-field'
import type { MarketView } from '../../components/view'
import type { MarketEnv } from '../../env'
import { ErrorMessages, PageError } from '../../errors/page-error'
import { FORM_TOKEN_FIELD } from '../../forms/form-token'
import { readForm } from '../../forms/read-form'
import { byDistance } from '../../../contract/distance'
import { countryName } from '../../i18n/formats'
import { sendRedirect } from '../../render/respond'
import type { Address, PostalAddress } from '../../../contract/account-schemas'
import type { Dealer } from '../../../contract/catalogue-schemas'
import type { Checkout } from '../../../contract/checkout-schemas'
import { unlessRefused } from '../../upstream/errors'
import type { User } from '../../../contract/schemas'
import { addressFieldsOf } from '../../components/address-fields'
import { CountryChoice, COUNTRY_INTENT, countriesOf, DefaultSubmit } from '../account/addresses'
import { type Origin, originOf } from '../dealer-origin'
import {
  CheckoutSteps,
  CheckoutSummary,
  CheckoutSummaryToggle,
  cartCodeOf,
  checkoutOf,
  checkoutPaths,
  checkoutToken,
  moneyOf,
  postedToken,
  readCheckout,
  sendCheckoutPage,
} from './checkout-page'
import {
  type AddressPrefix,
  addressForPlace,
  type CheckoutValues,
  choicesOf,
  formErrorsOf,
  initialValues,
} from './checkout-values'

/** A dealer the order can be picked up at, with its distance when it was measured from a known place. */
type PickupDealer = Pick<Dealer, 'slug' | 'name' | 'address' | 'postal_code' | 'city'> & { distanceKm: number | null }

type FormData = {
  checkout: Checkout
  addresses: Address[]
  dealers: PickupDealer[]
  origin: Origin
  countries: Array<{ code: string; name: string }>
}

/** Why the form came back with no field to blame: a dealer that stopped selling, or a form to send again. */
type FormMessage = 'dealer_unavailable' | null

/** Messages of the form's own choices (`checkout.error.*`); any other key is a `validation.*` text. */
const OWN_ERRORS = new Set(['delivery', 'dealer', 'payment_method', 'saved_address'])
const errorText = (view: MarketView, key: string) =>
  OWN_ERRORS.has(key) ? view.t(`checkout.error.${key}`) : view.t(`validation.${key}`)

/** A radio group's message under its legend, tied to it for assistive technology. */
function GroupError({ view, id, errors }: { view: MarketView; id: string; errors?: string[] }) {
  if (!errors?.length) return null
  return (
    <p className="field-error" id={`${id}-error`}>
      {errors.map((key) => errorText(view, key)).join(' ')}
    </p>
  )
}

/** A saved address in a radio's label: who, the street, the postcode and town (left to right kept where it must). */
function SavedAddressLabel({ address }: { address: Address }) {
  return (
    <span className="checkout-option-text">
      <strong>
        <bdi>{address.label || `${address.first_name} ${address.last_name}`}</bdi>
      </strong>
      <span>
        <bdi>{`${address.first_name} ${address.last_name}, ${address.line1}`}</bdi>
      </span>
      <span>
        <bdi dir="ltr">{address.postal_code}</bdi> <bdi>{address.city}</bdi>
      </span>
    </span>
  )
}

/** One address part: the customer's saved addresses to pick, or a new one (its fields, and "save to my addresses"). */
function AddressChoiceFields({
  view,
  prefix,
  legend,
  addresses,
  countries,
  values,
  errors,
}: {
  view: MarketView
  prefix: AddressPrefix
  legend: string
  addresses: Address[]
  countries: Array<{ code: string; name: string }>
  values: CheckoutValues
  errors?: FieldErrors
}) {
  const { t } = view
  const name = `${prefix}_choice`
  const groupId = `field-${name}`
  const chosen = values[name] ?? 'new'
  const invalid = Boolean(errors?.[name]?.length)
  const fieldError = (field: string) => errors?.[`${prefix}_${field}`]
  const section = prefix === 'ship' ? 'shipping' : 'billing'
  const country = values[`${prefix}_country_code`] || view.market.country.toUpperCase()
  return (
    <fieldset
      className={`checkout-addresses checkout-${prefix}`}
      id={groupId}
      aria-describedby={invalid ? `${groupId}-error` : undefined}
    >
      <legend>{legend}</legend>
      <GroupError view={view} id={groupId} errors={errors?.[name]} />
      <div className="checkout-options">
        {addresses.map((address) => (
          <label key={address.id} className="checkout-option" htmlFor={`${groupId}-${address.id}`}>
            <input
              id={`${groupId}-${address.id}`}
              type="radio"
              name={name}
              value={String(address.id)}
              defaultChecked={chosen === String(address.id)}
            />
            <SavedAddressLabel address={address} />
          </label>
        ))}
        <label className="checkout-option" htmlFor={`${groupId}-new`}>
          <input
            id={`${groupId}-new`}
            type="radio"
            name={name}
            value="new"
            defaultChecked={chosen === 'new'}
            className="checkout-new-toggle"
          />
          <span className="checkout-option-text">
            <strong>{t('checkout.new_address')}</strong>
          </span>
        </label>
      </div>
      <div className="checkout-new-address">
        <CountryChoice
          view={view}
          name={`${prefix}_country_code`}
          countries={countries}
          value={country}
          errors={errors}
          autoComplete={`${section} country`}
        />
        {addressFieldsOf(country).map(({ name: field, label, optional, maxLength, autoComplete, example }) => (
          <Field
            key={field}
            view={view}
            name={`${prefix}_${field}`}
            label={t(label)}
            optional={optional}
            maxLength={maxLength}
            autoComplete={`${section} ${autoComplete}`}
            hint={example ? t('address.postal_code_example', { example }) : undefined}
            dir={field === 'postal_code' ? 'ltr' : 'auto'}
            defaultValue={values[`${prefix}_${field}`]}
            errors={fieldError(field) ? { [`${prefix}_${field}`]: fieldError(field) } : undefined}
          />
        ))}
        <Field
          view={view}
          name={`${prefix}_phone`}
          label={t('address.phone')}
          // Home delivery's courier calls first: the delivery address's phone is required, the billing's is not.
          optional={prefix !== 'ship'}
          hint={prefix === 'ship' ? t('checkout.phone_delivery_hint') : undefined}
          type="tel"
          dir="ltr"
          autoComplete={`${section} tel`}
          maxLength={30}
          defaultValue={values[`${prefix}_phone`]}
          errors={errors}
        />
        <div className="field checkbox">
          <input
            id={`field-${prefix}_save`}
            type="checkbox"
            name={`${prefix}_save`}
            value="on"
            defaultChecked={values[`${prefix}_save`] === 'on'}
          />
          <label htmlFor={`field-${prefix}_save`}>{t('checkout.save_address')}</label>
        </div>
      </div>
    </fieldset>
  )
}

/** The checkout form: delivery, addresses and payment, numbered, beside the order summary; a plain POST. */
export function CheckoutFormPage({
  view,
  data,
  values,
  errors,
  message,
  token,
  code,
}: {
  view: MarketView
  data: FormData
  values: CheckoutValues
  errors?: FieldErrors
  message: FormMessage
  token: string
  code: string
}) {
  const { t } = view
  const market = view.market
  const paths = checkoutPaths(market, code)
  const { checkout, dealers, origin } = data
  const money = moneyOf(view, checkout.cart.currency)
  const shipping = checkout.cart.shipping
  const shippingPrice = shipping?.price ?? 0
  const inCountry = data.addresses.filter(
    (address) => address.country_code.toUpperCase() === market.country.toUpperCase(),
  )
  const marketCountry = [
    { code: market.country.toUpperCase(), name: countryName(market.country.toUpperCase(), market.tag) },
  ]
  const delivery = values.delivery === 'pickup' ? 'pickup' : 'home'
  const originNote =
    origin.from === 'place'
      ? t('dealer.nearest_to', { place: origin.place })
      : origin.from === 'visitor'
        ? t('dealer.near_you')
        : t('checkout.dealers_by_town')
  return (
    <div className="checkout-page">
      <CheckoutSteps view={view} current={1} paths={paths} />
      <h1>{t('checkout.title')}</h1>
      <CheckoutSummaryToggle view={view} checkout={checkout} />
      <div className="checkout-layout">
        <form method="post" action={paths.form} className="checkout-form stacked-form" noValidate>
          <DefaultSubmit label={t('checkout.continue')} />
          <input type="hidden" name={FORM_TOKEN_FIELD} value={token} />
          {message === 'dealer_unavailable' ? (
            <p className="form-error" role="alert">
              {t('checkout.dealer_unavailable')}
            </p>
          ) : (
            <FormErrors view={view} errors={errors} />
          )}

          <section className="checkout-section" aria-labelledby="checkout-delivery-title">
            <h2 id="checkout-delivery-title">
              <span className="checkout-section-number" aria-hidden="true">
                1
              </span>
              {t('checkout.delivery_title')}
            </h2>
            <fieldset
              className="checkout-delivery"
              id="field-delivery"
              aria-describedby={errors?.delivery ? 'field-delivery-error' : undefined}
            >
              <legend className="visually-hidden">{t('checkout.delivery_title')}</legend>
              <GroupError view={view} id="field-delivery" errors={errors?.delivery} />
              <div className="checkout-options two">
                <label className="checkout-option" htmlFor="delivery-home">
                  <input
                    id="delivery-home"
                    type="radio"
                    name="delivery"
                    value="home"
                    defaultChecked={delivery === 'home'}
                  />
                  <span className="checkout-option-text">
                    <strong>{t('checkout.home')}</strong>
                    <span>{shippingPrice === 0 ? t('cart.delivery_free') : money(shippingPrice)}</span>
                    {shipping && (
                      <span>
                        {t('cart.delivery_days', { min: String(shipping.days[0]), max: String(shipping.days[1]) })}
                      </span>
                    )}
                    {shipping && shipping.free_from !== null && shippingPrice > 0 && (
                      <span>{t('cart.free_from', { price: money(shipping.free_from) })}</span>
                    )}
                  </span>
                </label>
                <label className="checkout-option" htmlFor="delivery-pickup">
                  <input
                    id="delivery-pickup"
                    type="radio"
                    name="delivery"
                    value="pickup"
                    defaultChecked={delivery === 'pickup'}
                    disabled={dealers.length === 0}
                  />
                  <span className="checkout-option-text">
                    <strong>{t('checkout.pickup')}</strong>
                    <span>{t('cart.delivery_free')}</span>
                    <span>{dealers.length === 0 ? t('checkout.no_dealers') : t('checkout.pickup_text')}</span>
                  </span>
                </label>
              </div>
            </fieldset>
            {dealers.length > 0 && (
              <fieldset
                className="checkout-dealers"
                id="field-dealer"
                aria-describedby={['field-dealer-hint', errors?.dealer ? 'field-dealer-error' : '']
                  .filter(Boolean)
                  .join(' ')}
              >
                <legend>{t('checkout.dealer_legend')}</legend>
                <p className="hint" id="field-dealer-hint">
                  {originNote}
                </p>
                <GroupError view={view} id="field-dealer" errors={errors?.dealer} />
                <div className="checkout-options">
                  {dealers.map((dealer) => (
                    <label key={dealer.slug} className="checkout-option" htmlFor={`dealer-${dealer.slug}`}>
                      <input
                        id={`dealer-${dealer.slug}`}
                        type="radio"
                        name="dealer"
                        value={dealer.slug}
                        defaultChecked={values.dealer === dealer.slug}
                      />
                      <span className="checkout-option-text">
                        <strong>
                          <bdi>{dealer.name}</bdi>
                        </strong>
                        <span>
                          <bdi>{dealer.address}</bdi>
                        </span>
                        <span>
                          {dealer.postal_code && <bdi dir="ltr">{dealer.postal_code}</bdi>} <bdi>{dealer.city}</bdi>
                        </span>
                      </span>
                      {dealer.distanceKm !== null && (
                        <span className="checkout-option-aside">
                          {t('dealer.distance', { km: String(Math.round(dealer.distanceKm)) })}
                        </span>
                      )}
                    </label>
                  ))}
                </div>
              </fieldset>
            )}
          </section>

          <section className="checkout-section" aria-labelledby="checkout-addresses-title">
            <h2 id="checkout-addresses-title">
              <span className="checkout-section-number" aria-hidden="true">
                2
              </span>
              {t('checkout.addresses_title')}
            </h2>
            <AddressChoiceFields
              view={view}
              prefix="ship"
              legend={t('checkout.shipping_legend')}
              addresses={inCountry}
              countries={marketCountry}
              values={values}
              errors={errors}
            />
            <div className="field checkbox checkout-billing-same">
              <input
                id="field-billing_same"
                type="checkbox"
                name="billing_same"
                value="on"
                defaultChecked={values.billing_same === 'on'}
              />
              <label htmlFor="field-billing_same">{t('checkout.billing_same')}</label>
            </div>
            <AddressChoiceFields
              view={view}
              prefix="bill"
              legend={t('checkout.billing_legend')}
              addresses={data.addresses}
              countries={data.countries}
              values={values}
              errors={errors}
            />
            <p className="hint checkout-pickup-hint">{t('checkout.pickup_billing_hint')}</p>
          </section>

          <section className="checkout-section" aria-labelledby="checkout-payment-title">
            <h2 id="checkout-payment-title">
              <span className="checkout-section-number" aria-hidden="true">
                3
              </span>
              {t('checkout.payment_title')}
            </h2>
            <fieldset
              className="checkout-payment"
              id="field-payment_method"
              aria-describedby={[
                'field-payment_method-hint',
                errors?.payment_method ? 'field-payment_method-error' : '',
              ]
                .filter(Boolean)
                .join(' ')}
            >
              <legend className="visually-hidden">{t('checkout.payment_title')}</legend>
              <p className="hint" id="field-payment_method-hint">
                {t('checkout.payment_hint')}
              </p>
              <GroupError view={view} id="field-payment_method" errors={errors?.payment_method} />
              <div className="checkout-options two">
                {checkout.payment_methods.map((method) => (
                  <label key={method} className="checkout-option" htmlFor={`payment-${method}`}>
                    <input
                      id={`payment-${method}`}
                      type="radio"
                      name="payment_method"
                      value={method}
                      defaultChecked={values.payment_method === method}
                    />
                    <span className="checkout-option-text">
                      <strong>{t(`payment_method.${method}`)}</strong>
                      <span>{t(`checkout.payment_${method}`)}</span>
                    </span>
                  </label>
                ))}
              </div>
            </fieldset>
          </section>

          <div className="checkout-actions">
            <button type="submit" className="button checkout-submit">
              {t('checkout.continue')}
            </button>
            <a href={paths.cart}>{t('checkout.back_to_cart')}</a>
          </div>
        </form>
        <CheckoutSummary view={view} checkout={checkout} />
      </div>
    </div>
  )
}

/** The page for an account whose address is not confirmed yet: it says so, with "send the link again" (no form). */
function UnconfirmedPage({ view, user, code }: { view: MarketView; user: User; code: string }) {
  const { t } = view
  const market = view.market
  const paths = checkoutPaths(market, code)
  return (
    <div className="checkout-page checkout-message">
      <h1>{t('checkout.unconfirmed_title')}</h1>
      <p className="lead">
        {t('confirm.banner_before')} <bdi dir="ltr">{user.email}</bdi>
      </p>
      <p>{t('checkout.unconfirmed_text')}</p>
      <form method="post" action={`/${market.segment}/my-account/confirm-email`}>
        <input type="hidden" name="redirect" value={paths.form} />
        <button type="submit" className="button">
          {t('confirm.resend')}
        </button>
      </form>
      <p>
        <a href={paths.cart}>{t('checkout.back_to_cart')}</a>
      </p>
    </div>
  )
}

/** Where the pick-up list measures from: the town of the address given (postcode first), else the edge's rule. */
async function placeOfAddress(c: Context<MarketEnv>, address: Pick<PostalAddress, 'postal_code' | 'city'> | null) {
  if (!address) return null
  const place = (words: string) =>
    words.trim().length >= 2
      ? c.var.api.dealers.place(words.trim().slice(0, 80)).catch(() => null)
      : Promise.resolve(null)
  return (await place(address.postal_code)) ?? (await place(address.city))
}

/** How many dealers the pick-up offers: the nearest that sell (docs/decisions/071). */
export const PICKUP_DEALERS = 12

/**
 * The PICKUP_DEALERS dealers of the market that sell nearest to the customer's address, or the visitor, or the
 * market's centre, nearest first (found by their grid cells, never the market's whole list), and the one already
 * chosen wherever it is (one read by its slug).
 */
async function pickupDealers(
  c: Context<MarketEnv>,
  values: CheckoutValues,
  addresses: Address[],
): Promise<{ dealers: PickupDealer[]; origin: Origin }> {
  const place = await placeOfAddress(c, addressForPlace(values, addresses))
  const origin = originOf(c, place, '', [])
  const chosen = /^[a-z0-9-]{1,80}$/.test(values.dealer ?? '') ? (values.dealer ?? '') : ''
  const [nearest, named] = await Promise.all([
    c.var.api.dealers.nearest(origin.point, ['sales'], PICKUP_DEALERS, origin.from !== 'visitor'),
    chosen ? c.var.api.dealers.one(chosen).catch(() => null) : null,
  ])
  const selling = named?.services.sales && !nearest.some((d) => d.slug === named.slug) ? [...nearest, named] : nearest
  const measured = origin.from !== 'centre'
  const dealers = byDistance(selling, origin.point).map(({ slug, name, address, postal_code, city, distance_km }) => ({
    slug,
    name,
    address,
    postal_code,
    city,
    distanceKm: measured ? distance_km : null,
  }))
  return { dealers, origin }
}

async function loadForm(
  c: Context<MarketEnv>,
  checkout: Checkout,
  addresses: Address[],
  values: CheckoutValues,
): Promise<FormData> {
  const [{ dealers, origin }, chromeSites] = await Promise.all([
    pickupDealers(c, values, addresses),
    c.var.lookups.sites().catch(() => []),
  ])
  const countries = countriesOf(chromeSites, c.var.market.tag)
  return { checkout, addresses, dealers, origin, countries }
}

async function sendForm(
  c: Context<MarketEnv>,
  code: string,
  data: FormData,
  values: CheckoutValues,
  { errors, message = null, status = 200 }: { errors?: FieldErrors; message?: FormMessage; status?: 200 | 422 } = {},
) {
  const token = await checkoutToken(c, code, 'choices', status !== 200)
  return sendCheckoutPage(
    c,
    { key: 'checkout.title' },
    ({ view }) => (
      <CheckoutFormPage
        view={view}
        data={data}
        values={values}
        errors={errors}
        message={message}
        token={token}
        code={code}
      />
    ),
    { status },
  )
}

/**
 * `GET /{m}/checkout/{code}`: the customer's checkout of their cart in the market. Another customer's code, an
 * anonymous cart's or a malformed one: 404. An unconfirmed address refused by the backend (`?confirm=email`): the
 * page says so, with "send the link again". An
 * empty cart: back to the cart (303). `?changed=dealer`: the pick-up dealer chosen stopped selling.
 */
export async function checkoutPage(c: Context<MarketEnv>): Promise<Response> {
  const code = cartCodeOf(c)
  const [checkout, user, addresses] = await Promise.all([
    readCheckout(c, code),
    c.var.account.profile(),
    c.var.account.addresses().then((list) => list ?? []),
  ])
  if (!user) throw PageError.pageNotFound(c.req.url)
  // A backend of the brand's may still refuse an unconfirmed account's order (`email_unconfirmed`): the review
  // sends it here, which says why. The embedded API lets it buy, and asks for the confirmation after (decision 057).
  if (!user.email_confirmed && c.req.query('confirm') === 'email') {
    return sendCheckoutPage(c, { key: 'checkout.unconfirmed_title' }, ({ view }) => (
      <UnconfirmedPage view={view} user={user} code={code} />
    ))
  }
  if (checkout.cart.lines.length === 0) return sendRedirect(c, checkoutPaths(c.var.market, code).cart, 303)
  const values = initialValues(checkout, addresses, c.var.market.country.toUpperCase())
  const message: FormMessage = c.req.query('changed') === 'dealer' ? 'dealer_unavailable' : null
  return sendForm(c, code, await loadForm(c, checkout, addresses, values), values, { message })
}

/**
 * `POST /{m}/checkout/{code}`: the choices, checked here with the shared rules and by the API, stored all at once,
 * then `303` to the review. A wrong form comes back (422) with every value kept and each message beside its field.
 * The form's token must be this customer's for this cart (400 otherwise).
 */
export async function submitCheckout(c: Context<MarketEnv>): Promise<Response> {
  const code = cartCodeOf(c)
  const form = await readForm(c)
  if (!(await postedToken(c, code, 'choices', form[FORM_TOKEN_FIELD])))
    throw new PageError(400, ErrorMessages.badRequest)
  const values: CheckoutValues = Object.fromEntries(
    Object.entries(form)
      .filter(([key]) => key !== FORM_TOKEN_FIELD)
      .map(([key, value]) => [key, String(value).slice(0, 200)]),
  )
  const paths = checkoutPaths(c.var.market, code)
  const again = async (errors: FieldErrors) => {
    const [checkout, addresses] = await Promise.all([
      readCheckout(c, code),
      c.var.account.addresses().then((list) => list ?? []),
    ])
    return sendForm(c, code, await loadForm(c, checkout, addresses, values), values, { errors, status: 422 })
  }
  // "Show the form for this country": the same form again, its address parts the chosen country's, nothing stored.
  if (values[COUNTRY_INTENT] === 'country') {
    const [checkout, addresses] = await Promise.all([
      readCheckout(c, code),
      c.var.account.addresses().then((list) => list ?? []),
    ])
    return sendForm(c, code, await loadForm(c, checkout, addresses, values), values)
  }
  const { choices, errors } = choicesOf(values)
  if (!choices) return again(errors ?? {})
  const { answer, refused } = await unlessRefused(checkoutOf(c).choose(code, choices), [422])
  if (refused) return again(formErrorsOf(refused.rejection.errors ?? { form: ['invalid'] }))
  if (!answer) throw PageError.pageNotFound(c.req.url)
  if (answer.cart.lines.length === 0) return sendRedirect(c, paths.cart, 303)
  return sendRedirect(c, paths.review, 303)
}
