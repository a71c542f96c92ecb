import type { Context } from 'hono'
import { AccountLayout, accountBase } from '../../components/account-layout'
import { addressFieldsOf } from '../../components/address-fields'
import { AddressLines } from '../../components/address-lines'
import { type FieldErrors, Field, FormErrors } from '../../components/form-field'
import { type Notice, withNotice } from '../../components/toast'
import type { MarketView } from '../../components/view'
import { configOf } from '../../config'
import type { MarketEnv } from '../../env'
import { PageError } from '../../errors/page-error'
import { FORM_TOKEN_FIELD, issueFormToken, readFormToken } from '../../forms/form-token'
import { readForm } from '../../forms/read-form'
import { SelectField } from '../../components/choice-fields'
import { countryName } from '../../i18n/formats'
import { sendRedirect } from '../../render/respond'
import { type Address, addressInput } from '../../../contract/account-schemas'
import { fieldErrors } from '../../../contract/fields'
import { unlessRefused } from '../../upstream/errors'
import type { Site } from '../../../contract/schemas'
import { type AccountPageProps, sendAccountPage } from './send-account-page'

type AddressForm = { values: Record<string, string>; errors?: FieldErrors }
type Country = { code: string; name: string }

/** The form of a new or an edited address, its fields the chosen country's; every field's message comes back beside it. */
function AddressFields({ view, form, countries }: { view: MarketView; form: AddressForm; countries: Country[] }) {
  const { t } = view
  const { values, errors } = form
  const country = values.country_code || view.market.country.toUpperCase()
  return (
    <>
      <DefaultSubmit label={t('address.save')} />
      <FormErrors view={view} errors={errors} />
      <Field
        view={view}
        name="label"
        label={t('address.label')}
        optional
        maxLength={40}
        autoComplete="off"
        defaultValue={values.label}
        errors={errors}
      />
      <CountryChoice view={view} name="country_code" countries={countries} value={country} errors={errors} />
      {addressFieldsOf(country).map(({ name, label, optional, maxLength, autoComplete, example }) => (
        <Field
          key={name}
          view={view}
          name={name}
          label={t(label)}
          optional={optional}
          maxLength={maxLength}
          autoComplete={autoComplete}
          hint={example ? t('address.postal_code_example', { example }) : undefined}
          defaultValue={values[name]}
          errors={errors}
          // A postcode is typed and read left to right, on a right-to-left page too.
          dir={name === 'postal_code' ? 'ltr' : 'auto'}
        />
      ))}
      <Field
        view={view}
        name="phone"
        label={t('address.phone')}
        optional
        type="tel"
        dir="ltr"
        autoComplete="tel"
        maxLength={30}
        defaultValue={values.phone}
        errors={errors}
      />
      <div className="field checkbox">
        <input
          id="field-is_default"
          type="checkbox"
          name="is_default"
          value="on"
          defaultChecked={values.is_default === 'on'}
        />
        <label htmlFor="field-is_default">{t('address.make_default')}</label>
      </div>
    </>
  )
}

/**
 * The country of an address, first in its form, with the button that shows the form again for the country chosen
 * (its fields, their order, its postcode), kept as typed: a plain form, no script needed (`intent=country`).
 */
export function CountryChoice({
  view,
  name,
  countries,
  value,
  errors,
  autoComplete = 'country',
}: {
  view: MarketView
  name: string
  countries: Country[]
  value: string
  errors?: FieldErrors
  autoComplete?: string
}) {
  return (
    <div className="address-country">
      <SelectField
        view={view}
        name={name}
        label={view.t('address.country')}
        autoComplete={autoComplete}
        options={countries.map((country) => ({ value: country.code, label: country.name }))}
        value={value}
        errors={errors}
      />
      {countries.length > 1 && (
        <button type="submit" name={COUNTRY_INTENT} value="country" className="button secondary" formNoValidate>
          {view.t('address.country_apply')}
        </button>
      )}
    </div>
  )
}

/** The submit button's name that asks for the form again for the chosen country, nothing saved. */
export const COUNTRY_INTENT = 'intent'

/**
 * The form's default button, first in it and out of sight: Enter in a field sends the form as its own button does,
 * never as the country's button that comes before it.
 */
export function DefaultSubmit({ label }: { label: string }) {
  return (
    <button type="submit" className="visually-hidden" tabIndex={-1} aria-hidden="true">
      {label}
    </button>
  )
}

/** The address book: each address with edit, make default and delete, then the form to add one. */
export function AddressesPage({
  view,
  chrome,
  head,
  addresses,
  form,
  countries,
}: AccountPageProps & { addresses: Address[]; form: AddressForm; countries: Country[] }) {
  const { t } = view
  const base = `${accountBase(view)}/addresses`
  return (
    <AccountLayout view={view} chrome={chrome} head={head}>
      <h1>{t('address.title')}</h1>
      {addresses.length === 0 ? (
        <p>{t('address.none')}</p>
      ) : (
        <ul className="address-list">
          {addresses.map((address) => (
            <li key={address.id} className="account-card address-card">
              <h2>{address.label || `${address.first_name} ${address.last_name}`}</h2>
              {address.is_default && <p className="badge">{t('address.default')}</p>}
              <AddressLines address={address} tag={view.market.tag} />
              <div className="actions">
                <a
                  className="button secondary"
                  href={`${base}/${address.id}/edit`}
                  aria-label={`${t('address.edit')}: ${address.label ?? address.line1}`}
                >
                  {t('address.edit')}
                </a>
                {!address.is_default && (
                  <form method="post" action={`${base}/${address.id}/default`}>
                    <button type="submit" className="button secondary">
                      {t('address.set_default')}
                    </button>
                  </form>
                )}
                <a
                  className="button danger"
                  href={`${base}/${address.id}/delete`}
                  aria-label={`${t('address.delete')}: ${address.label ?? address.line1}`}
                >
                  {t('address.delete')}
                </a>
              </div>
            </li>
          ))}
        </ul>
      )}
      <section aria-labelledby="add-address-title" className="account-card" id="add">
        <h2 id="add-address-title">{t('address.add_title')}</h2>
        <form method="post" action={base} className="stacked-form" noValidate>
          <AddressFields view={view} form={form} countries={countries} />
          <button type="submit" className="button">
            {t('address.save')}
          </button>
        </form>
      </section>
    </AccountLayout>
  )
}

/** One address's edit form; it posts to the address's own URL (`updateAddress`), whichever URL showed it. */
export function EditAddressPage({
  view,
  chrome,
  head,
  id,
  form,
  countries,
}: AccountPageProps & { id: string; form: AddressForm; countries: Country[] }) {
  const { t } = view
  const base = `${accountBase(view)}/addresses`
  return (
    <AccountLayout view={view} chrome={chrome} head={head}>
      <h1>{t('address.edit_title')}</h1>
      <form method="post" action={`${base}/${id}`} className="stacked-form account-card" noValidate>
        <AddressFields view={view} form={form} countries={countries} />
        <div className="actions">
          <button type="submit" className="button">
            {t('address.save')}
          </button>
          <a href={base}>{t('address.cancel')}</a>
        </div>
      </form>
    </AccountLayout>
  )
}

/**
 * "Delete this address?": the address as it stands, a button that deletes it (a POST carrying a token signed for this
 * customer and this address, so nothing but this page deletes it) and the way back that keeps it.
 */
export function DeleteAddressPage({
  view,
  chrome,
  head,
  address,
  token,
}: AccountPageProps & { address: Address; token: string }) {
  const { t } = view
  const base = `${accountBase(view)}/addresses`
  const name = address.label || `${address.first_name} ${address.last_name}`
  return (
    <AccountLayout view={view} chrome={chrome} head={head}>
      <h1>{t('address.delete_title')}</h1>
      <section className="account-card delete-confirm" aria-labelledby="delete-address-name">
        <h2 id="delete-address-name">{name}</h2>
        {address.is_default && <p className="badge">{t('address.default')}</p>}
        <AddressLines address={address} tag={view.market.tag} />
        <p className="delete-warning">{t('address.delete_text')}</p>
        <form method="post" action={`${base}/${address.id}/delete`} className="actions">
          <input type="hidden" name={FORM_TOKEN_FIELD} value={token} />
          <button type="submit" className="button danger">
            {t('address.delete_confirm')}
          </button>
          <a className="button secondary" href={base}>
            {t('address.delete_cancel')}
          </a>
        </form>
      </section>
    </AccountLayout>
  )
}

/** The countries an address may be in: those of the brand's markets, named in the visitor's language. */
export function countriesOf(sites: Site[], tag: string): Country[] {
  const codes = new Set(
    sites.map((site) => site.country.country_code.toUpperCase()).filter((code) => /^[A-Z]{2}$/.test(code)),
  )
  return [...codes]
    .map((code) => ({ code, name: countryName(code, tag) }))
    .sort((a, b) => a.name.localeCompare(b.name, tag))
}

const emptyForm = (c: Context<MarketEnv>): AddressForm => ({
  values: { country_code: c.var.market.country.toUpperCase() },
})

const formOf = (address: Address): AddressForm => ({
  values: Object.fromEntries(
    Object.entries(address).map(([key, value]) => [
      key,
      key === 'is_default' ? (value ? 'on' : '') : String(value ?? ''),
    ]),
  ),
})

async function sendAddressesPage(c: Context<MarketEnv>, form: AddressForm, status: 200 | 422 = 200): Promise<Response> {
  const addresses = (await c.var.account.addresses()) ?? []
  return sendAccountPage(
    c,
    { key: 'address.title' },
    (props) => (
      <AddressesPage
        {...props}
        addresses={addresses}
        form={form}
        countries={countriesOf(props.chrome.sites, props.view.market.tag)}
      />
    ),
    status,
  )
}

function sendEditPage(
  c: Context<MarketEnv>,
  id: string,
  form: AddressForm,
  status: 200 | 422 = 200,
): Promise<Response> {
  return sendAccountPage(
    c,
    { key: 'address.edit_title' },
    (props) => (
      <EditAddressPage
        {...props}
        id={id}
        form={form}
        countries={countriesOf(props.chrome.sites, props.view.market.tag)}
      />
    ),
    status,
  )
}

/** The address id in the path; a malformed one is "Page Not Found" like someone else's. */
function addressId(c: Context<MarketEnv>): string {
  const id = c.req.param('id') ?? ''
  if (!/^[1-9][0-9]{0,8}$/.test(id)) throw PageError.pageNotFound(c.req.url)
  return id
}

const backToList = (c: Context<MarketEnv>, notice: Notice) =>
  sendRedirect(c, withNotice(`/${c.var.market.segment}/my-account/addresses`, notice), 303)

/** `GET /{m}/my-account/addresses`. */
export const addressesPage = (c: Context<MarketEnv>) => sendAddressesPage(c, emptyForm(c))

/** `GET /{m}/my-account/addresses/{id}/edit`: the viewer's own address only; any other id is a 404. */
export async function editAddressPage(c: Context<MarketEnv>): Promise<Response> {
  const id = addressId(c)
  const address = await c.var.account.address(id)
  if (!address) throw PageError.pageNotFound(c.req.url)
  return sendEditPage(c, id, formOf(address))
}

/**
 * `POST /{m}/my-account/addresses`: adds an address (checked here with the shared schema and its country's rules, and
 * by the API); `intent=country` shows the form again for the country chosen.
 */
export async function createAddress(c: Context<MarketEnv>): Promise<Response> {
  const values = await readForm(c)
  if (values[COUNTRY_INTENT] === 'country') return sendAddressesPage(c, { values })
  const input = addressInput.safeParse(values)
  if (!input.success) return sendAddressesPage(c, { values, errors: fieldErrors(input.error) }, 422)
  const { refused } = await unlessRefused(c.var.account.addAddress(input.data), [422])
  if (refused) return sendAddressesPage(c, { values, errors: refused.rejection.errors }, 422)
  return backToList(c, 'address_saved')
}

/** `POST /{m}/my-account/addresses/{id}`: saves an edited address. */
export async function updateAddress(c: Context<MarketEnv>): Promise<Response> {
  const id = addressId(c)
  const values = await readForm(c)
  if (values[COUNTRY_INTENT] === 'country') return sendEditPage(c, id, { values })
  const input = addressInput.safeParse(values)
  if (!input.success) return sendEditPage(c, id, { values, errors: fieldErrors(input.error) }, 422)
  const { answer, refused } = await unlessRefused(c.var.account.updateAddress(id, input.data), [422])
  if (refused) return sendEditPage(c, id, { values, errors: refused.rejection.errors }, 422)
  if (!answer) throw PageError.pageNotFound(c.req.url)
  return backToList(c, 'address_saved')
}

/** What the delete confirmation's token is signed for: this customer and this address, so no other form's token fits. */
const deleteScope = (c: Context<MarketEnv>, id: string) => `address-delete:${c.var.viewer?.user.id ?? 0}:${id}`

function sessionSecret(c: Context<MarketEnv>): string {
  const secret = c.env.SESSION_SECRET
  if (!secret) throw PageError.maintenance()
  return secret
}

async function sendDeletePage(c: Context<MarketEnv>, id: string, status: 200 | 400 = 200): Promise<Response> {
  const address = await c.var.account.address(id)
  if (!address) throw PageError.pageNotFound(c.req.url)
  const token = await issueFormToken(sessionSecret(c), deleteScope(c, id))
  return sendAccountPage(
    c,
    { key: 'address.delete_title' },
    (props) => <DeleteAddressPage {...props} address={address} token={token} />,
    status,
  )
}

/** `GET /{m}/my-account/addresses/{id}/delete`: "Delete this address?" (the list's delete link leads here). */
export const deleteAddressPage = (c: Context<MarketEnv>) => sendDeletePage(c, addressId(c))

/**
 * `POST /{m}/my-account/addresses/{id}/delete`: deletes only with the confirmation page's token for this address.
 * Without it (a post from anywhere else, a forged or another address's token) or with one older than a day, nothing is
 * deleted: 400 and the question again, with a fresh token. A quick click counts: the token shows intent, not a person.
 */
export async function deleteAddress(c: Context<MarketEnv>): Promise<Response> {
  const id = addressId(c)
  const form = await readForm(c)
  const token = await readFormToken(sessionSecret(c), deleteScope(c, id), form[FORM_TOKEN_FIELD], {
    minFillSeconds: configOf(c.env).formMinFillSeconds,
    previous: c.env.SESSION_SECRET_PREVIOUS,
  })
  if (!token || token.state === 'expired') return sendDeletePage(c, id, 400)
  const deleted = await c.var.account.deleteAddress(id)
  if (!deleted) throw PageError.pageNotFound(c.req.url)
  return backToList(c, 'address_deleted')
}

/** `POST /{m}/my-account/addresses/{id}/default`. */
export async function makeDefaultAddress(c: Context<MarketEnv>): Promise<Response> {
  const address = await c.var.account.makeDefaultAddress(addressId(c))
  if (!address) throw PageError.pageNotFound(c.req.url)
  return backToList(c, 'default_address_set')
}
