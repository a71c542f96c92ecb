import type { FieldErrors } from '../../components/form-field'
import {
  type Address,
  POSTAL_ADDRESS_FIELDS,
  type PostalAddress,
  postalAddressInput,
} from '../../../contract/account-schemas'
import {
  type AddressChoice,
  type Checkout,
  type CheckoutChoices,
  checkoutChoicesInput,
  PAYMENT_METHODS,
  type PaymentMethod,
} from '../../../contract/checkout-schemas'
import { fieldErrors } from '../../../contract/fields'

/**
 * The checkout form's values and the API's choices, both ways: the values a form starts with (the choices made so
 * far, else the customer's defaults), the values posted as choices (or each message beside its field), and the API's
 * messages as the form's field names.
 */

/** The two address parts of the form; each field is named `{prefix}_{field}` (`ship_postal_code`). */
export type AddressPrefix = 'ship' | 'bill'
const PREFIXES: Record<AddressPrefix, 'shipping_address' | 'billing_address'> = {
  ship: 'shipping_address',
  bill: 'billing_address',
}

/** The form's values by field name (each kept to 200 characters when posted). */
export type CheckoutValues = Record<string, string>

/** Whether two postal addresses are the same (a choice's copy and a saved address). */
const sameAddress = (a: PostalAddress, b: PostalAddress) =>
  POSTAL_ADDRESS_FIELDS.every((field) => (a[field] ?? '') === (b[field] ?? ''))

/** The form's values for one address part: the saved address it is, or its fields as a new one. */
function addressValues(
  prefix: AddressPrefix,
  address: PostalAddress | null,
  saved: Address[],
  fallback: Address | undefined,
  country: string,
): CheckoutValues {
  const match = address ? saved.find((candidate) => sameAddress(candidate, address)) : fallback
  if (match) return { [`${prefix}_choice`]: String(match.id), [`${prefix}_country_code`]: country }
  const values: CheckoutValues = { [`${prefix}_choice`]: 'new', [`${prefix}_country_code`]: country }
  if (address)
    for (const [key, value] of Object.entries(address)) values[`${prefix}_${key}`] = value == null ? '' : String(value)
  return values
}

/** The values the form starts with: the choices made so far, else the default address, home delivery and card. */
export function initialValues(checkout: Checkout, addresses: Address[], country: string): CheckoutValues {
  const { choices } = checkout
  const inCountry = addresses.filter((address) => address.country_code.toUpperCase() === country)
  const preferred = inCountry.find((address) => address.is_default) ?? inCountry[0]
  const anyDefault = addresses.find((address) => address.is_default) ?? addresses[0]
  const made = choices.delivery !== null
  return {
    delivery: choices.delivery?.method ?? 'home',
    dealer: choices.delivery?.dealer?.slug ?? '',
    ...addressValues('ship', choices.shipping_address, inCountry, made ? undefined : preferred, country),
    billing_same: !made || choices.billing_same ? 'on' : '',
    ...addressValues(
      'bill',
      choices.billing_same ? null : choices.billing_address,
      addresses,
      made && !choices.billing_same ? undefined : anyDefault,
      country,
    ),
    payment_method: choices.payment_method ?? checkout.payment_methods[0] ?? 'card',
  }
}

/** The address the dealers are sorted by: the one the form names (delivery, else billing), a saved one or new. */
export function addressForPlace(
  values: CheckoutValues,
  addresses: Address[],
): Pick<PostalAddress, 'postal_code' | 'city'> | null {
  for (const prefix of ['ship', 'bill'] as const) {
    const choice = values[`${prefix}_choice`]
    if (choice && choice !== 'new') {
      const saved = addresses.find((address) => String(address.id) === choice)
      if (saved) return saved
    } else if (values[`${prefix}_postal_code`] || values[`${prefix}_city`]) {
      return { postal_code: values[`${prefix}_postal_code`] ?? '', city: values[`${prefix}_city`] ?? '' }
    }
  }
  return null
}

/** The address part's choice as the API takes it, or its messages keyed by the form's field names. */
function addressChoiceOf(
  prefix: AddressPrefix,
  form: CheckoutValues,
): { choice?: AddressChoice; errors?: FieldErrors } {
  const chosen = form[`${prefix}_choice`] ?? 'new'
  if (chosen !== 'new') {
    return /^[1-9][0-9]{0,8}$/.test(chosen)
      ? { choice: { saved: Number(chosen) } }
      : { errors: { [`${prefix}_choice`]: ['saved_address'] } }
  }
  const fields = Object.fromEntries(POSTAL_ADDRESS_FIELDS.map((field) => [field, form[`${prefix}_${field}`] ?? '']))
  const parsed = postalAddressInput.safeParse(fields)
  if (!parsed.success) {
    return {
      errors: Object.fromEntries(
        Object.entries(fieldErrors(parsed.error)).map(([field, keys]) => [`${prefix}_${field}`, keys]),
      ),
    }
  }
  return { choice: { address: parsed.data, save: form[`${prefix}_save`] === 'on' } }
}

/** The form as the API's choices, or every message beside its field. */
export function choicesOf(form: CheckoutValues): { choices?: CheckoutChoices; errors?: FieldErrors } {
  const errors: FieldErrors = {}
  const method = form.delivery
  if (method !== 'home' && method !== 'pickup') errors.delivery = ['delivery']
  const dealer = form.dealer ?? ''
  if (method === 'pickup' && !/^[a-z0-9][a-z0-9-]{0,99}$/.test(dealer)) errors.dealer = ['dealer']
  const payment = form.payment_method
  if (!(PAYMENT_METHODS as readonly string[]).includes(payment ?? '')) errors.payment_method = ['payment_method']
  const shipping = method === 'home' ? addressChoiceOf('ship', form) : {}
  const billing =
    method === 'pickup' || (method === 'home' && form.billing_same !== 'on') ? addressChoiceOf('bill', form) : {}
  Object.assign(errors, shipping.errors, billing.errors)
  if (Object.keys(errors).length > 0) return { errors }
  const choices: CheckoutChoices = {
    delivery: method === 'pickup' ? { method, dealer } : { method: 'home' },
    shipping_address: shipping.choice ?? null,
    billing_address: billing.choice ?? null,
    payment_method: payment as PaymentMethod,
  }
  // The rules between the choices (home delivery's phone) are the contract's, read as the API would answer them.
  const checked = checkoutChoicesInput.safeParse(choices)
  if (!checked.success)
    return {
      errors: formErrorsOf(
        Object.fromEntries(checked.error.issues.map((issue) => [issue.path.join('.'), [issue.message]])),
      ),
    }
  return { choices }
}

/**
 * The API's messages (keyed by the choices' paths: `shipping_address.address.postal_code`, `dealer`) as the form's
 * field names (`ship_postal_code`, `dealer`).
 */
export function formErrorsOf(apiErrors: Record<string, string[]> | undefined): FieldErrors {
  const errors: FieldErrors = {}
  const add = (field: string, keys: string[]) =>
    (errors[field] = [
      ...new Set([...(errors[field] ?? []), ...keys.map((key) => (/^[a-z_]+$/.test(key) ? key : 'invalid'))]),
    ])
  for (const [path, keys] of Object.entries(apiErrors ?? {})) {
    const [head, second, third] = path.split('.')
    const prefix = (Object.keys(PREFIXES) as AddressPrefix[]).find((candidate) => PREFIXES[candidate] === head)
    // A delivery address abroad: the market delivers only in its own country.
    const own = prefix === 'ship' ? keys.map((key) => (key === 'country' ? 'delivery_country' : key)) : keys
    if (prefix)
      add(
        second === 'address' && third ? `${prefix}_${third}` : `${prefix}_choice`,
        // A saved address is refused as a whole; only a missing phone says what it lacks.
        second === 'saved' || !second
          ? keys.includes('phone_delivery')
            ? ['phone_delivery']
            : ['saved_address']
          : own,
      )
    else if (head === 'dealer' || head === 'delivery')
      add(head === 'dealer' || second === 'dealer' ? 'dealer' : 'delivery', [
        head === 'delivery' && second !== 'dealer' ? 'delivery' : 'dealer',
      ])
    else if (head === 'payment_method') add('payment_method', ['payment_method'])
    else add('form', keys)
  }
  return errors
}
