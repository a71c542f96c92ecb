import type { Context } from 'hono'
import { AccountLayout } from '../../components/account-layout'
import { type FieldErrors, Field, FormErrors } from '../../components/form-field'
import { withNotice } from '../../components/toast'
import type { MarketView } from '../../components/view'
import { ATTEMPT_WINDOW_SECONDS } from '../../auth/attempts'
import type { MarketEnv } from '../../env'
import { readForm } from '../../forms/read-form'
import { formatDate } from '../../i18n/formats'
import { withinLimit } from '../../ops/rate-limit'
import { sendRedirect } from '../../render/respond'
import { type Bike, type BikeModel, bikeRegistration } from '../../../contract/account-schemas'
import { fieldErrors } from '../../../contract/fields'
import { unlessRefused } from '../../upstream/errors'
import { Ltr } from './ltr'
import { type AccountPageProps, sendAccountPage } from './send-account-page'

type BikeForm = { values: Record<string, string>; errors?: FieldErrors }
type BikesProps = AccountPageProps & { bikes: Bike[]; models: BikeModel[]; form: BikeForm }

/** The registered bikes: model, frame number, purchase and warranty end; their names are headings at `level`. */
export function BikeList({ view, bikes, level }: { view: MarketView; bikes: Bike[]; level: 2 | 3 }) {
  const { t, market } = view
  const tag = market.tag
  const Heading = level === 2 ? 'h2' : 'h3'
  return (
    <ul className="bike-list">
      {bikes.map((bike) => (
        <li key={bike.id} className="bike">
          {bike.product.image && <img src={bike.product.image} alt="" width={160} height={107} loading="lazy" />}
          <div>
            <Heading>{bike.product.name}</Heading>
            <p className="serial">
              {t('bike.serial')}:{' '}
              <code>
                <Ltr>{bike.serial_number}</Ltr>
              </code>
            </p>
            <p>
              {t('bike.purchased', { date: formatDate(bike.purchased_on, tag) })}
              {bike.dealer_name && ` ${t('bike.from_dealer', { dealer: bike.dealer_name })}`}
            </p>
            <p className="warranty">{t('bike.warranty_until', { date: formatDate(bike.warranty_ends_on, tag) })}</p>
          </div>
        </li>
      ))}
    </ul>
  )
}

/** The bikes page: the list, then the registration form (frame number, model, purchase date, optional dealer). */
export function BikesPage({ view, chrome, head, bikes, models, form }: BikesProps) {
  const { t } = view
  const today = new Date().toISOString().slice(0, 10)
  return (
    <AccountLayout view={view} chrome={chrome} head={head}>
      <h1>{t('bike.title')}</h1>
      {bikes.length === 0 ? <p>{t('bike.none')}</p> : <BikeList view={view} bikes={bikes} level={2} />}
      <section id="register" aria-labelledby="register-title" className="account-card">
        <h2 id="register-title">{t('bike.register_title')}</h2>
        <p>{t('bike.register_intro')}</p>
        <form method="post" className="stacked-form" noValidate>
          <FormErrors view={view} errors={form.errors} />
          <Field
            view={view}
            name="serial_number"
            label={t('bike.serial')}
            hint={t('bike.serial_hint')}
            autoComplete="off"
            spellCheck={false}
            maxLength={20}
            defaultValue={form.values.serial_number}
            errors={form.errors}
          />
          <Field view={view} name="product_id" label={t('bike.model')} errors={form.errors}>
            {({ id, invalid, describedBy }) => (
              <select
                id={id}
                name="product_id"
                required
                aria-invalid={invalid || undefined}
                aria-describedby={describedBy}
                defaultValue={form.values.product_id ?? ''}
              >
                <option value="">{t('bike.choose_model')}</option>
                {models.map((model) => (
                  <option key={model.id} value={String(model.id)}>
                    {model.name}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field
            view={view}
            name="purchased_on"
            label={t('bike.purchased_on')}
            type="date"
            max={today}
            defaultValue={form.values.purchased_on}
            errors={form.errors}
          />
          <Field
            view={view}
            name="dealer_name"
            label={t('bike.dealer')}
            optional
            maxLength={120}
            defaultValue={form.values.dealer_name}
            errors={form.errors}
          />
          <button type="submit" className="button">
            {t('bike.submit')}
          </button>
        </form>
      </section>
    </AccountLayout>
  )
}

async function sendBikesPage(c: Context<MarketEnv>, form: BikeForm, status: 200 | 422 | 429 = 200): Promise<Response> {
  const { account } = c.var
  const [bikes, models] = await Promise.all([account.bikes(), account.bikeModels()])
  return sendAccountPage(
    c,
    { key: 'bike.title' },
    (props) => <BikesPage {...props} bikes={bikes ?? []} models={models} form={form} />,
    status,
  )
}

/** `GET /{m}/my-account/bikes`. */
export const bikesPage = (c: Context<MarketEnv>) => sendBikesPage(c, { values: {} })

/**
 * `POST /{m}/my-account/bikes`: checked with the shared schema, counted against the account
 * (`BIKE_REGISTRATION_ATTEMPTS`: past it, 429), then registered; a frame number that cannot be registered
 * (409 `serial_unavailable`) or is already this account's comes back as the field's message.
 */
export async function registerBike(c: Context<MarketEnv>): Promise<Response> {
  const values = await readForm(c)
  const input = bikeRegistration.safeParse(values)
  if (!input.success) return sendBikesPage(c, { values, errors: fieldErrors(input.error) }, 422)
  // Every frame number tried counts, registered or refused: finding out which numbers exist stays slow.
  if (!(await withinLimit(c.env.BIKE_REGISTRATION_ATTEMPTS, `bikes:${c.var.viewer?.user.id}`))) {
    c.header('Retry-After', String(ATTEMPT_WINDOW_SECONDS))
    return sendBikesPage(c, { values, errors: { form: ['too_many_attempts'] } }, 429)
  }
  const { refused } = await unlessRefused(c.var.account.registerBike(input.data), [409, 422])
  if (refused) return sendBikesPage(c, { values, errors: refused.rejection.errors }, 422)
  return sendRedirect(c, withNotice(c.req.path, 'bike_registered'), 303)
}
