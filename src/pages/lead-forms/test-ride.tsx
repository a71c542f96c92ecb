import type { Context } from 'hono'
import TestRideDays, { type RideDealerDays } from '../../../client/islands/test-ride-days'
import { IslandNames } from '../../../client/islands/names'
import { ChoiceGroup, TextAreaField } from '../../components/choice-fields'
import { Field } from '../../components/form-field'
import { Island } from '../../components/island'
import type { View } from '../../components/view'
import type { MarketEnv } from '../../env'
import {
  checkAndSend,
  type FieldsProps,
  type FormValues,
  leadForm,
  fieldValue,
  TEXT_FORM_BYTES,
} from '../../forms/lead-form'
import { byDistance } from '../../../contract/distance'
import type { Dealer } from '../../../contract/catalogue-schemas'
import { PARTS_OF_DAY, TEST_RIDE_DAYS_AHEAD, testRideRequest, testRideWindow } from '../../../contract/form-schemas'
import { nearOf, type Origin, originOf, placeOf } from '../dealer-origin'
import { textFields } from '../../components/lead-form-fields'

/** A model of a bicycle type the market sells, grouped by its type (`Biciclette`, `E-bike`). */
type ModelGroup = { type: string; models: Array<{ slug: string; name: string }> }

/** A dealer of the market that offers test rides: where it is, how far (when the visitor's place is known), its days. */
type RideDealer = Pick<Dealer, 'slug' | 'name' | 'city'> & {
  /** Kilometres from the place typed or the visitor's position; null when only the market's centre is known. */
  distanceKm: number | null
  /** Its opening days, Monday first: `1` open, `0` closed (`1111110`). */
  open: string
}

type RideData = {
  groups: ModelGroup[]
  dealers: RideDealer[]
  origin: Origin
  near: string
  window: { first: string; last: string }
}

/** First Strong Isolate … Pop Directional Isolate: a name or town kept in its own direction inside an option's text. */
const isolate = (text: string) => `\u2068${text}\u2069`

/** How many dealers the form offers: the nearest that offer test rides (docs/decisions/071), the contract's page. */
export const RIDE_DEALERS = 50

/**
 * What the form offers: the models of the market's bicycle types (the types marked `registrable`) and the
 * RIDE_DEALERS dealers nearest to the town typed (`?near=`), the visitor's position at the edge or the market's centre
 * that offer test rides and open on some day (found by their grid cells, never the market's whole list), nearest
 * first, or by town from the centre; a dealer named by `?dealer=` (its page's link) is offered wherever it is. Every
 * read is the market's cached one, but the place and the visitor's position.
 */
async function loadRide(c: Context<MarketEnv>): Promise<RideData> {
  const { api, market } = c.var
  const near = nearOf(c)
  const [types, place] = await Promise.all([api.catalogue.types(), placeOf(c, near)])
  const origin = originOf(c, place, near, [])
  const [nearest, named] = await Promise.all([
    api.dealers.nearest(origin.point, ['test_rides'], RIDE_DEALERS, origin.from !== 'visitor'),
    namedDealer(c),
  ])
  const all = named && !nearest.some((dealer) => dealer.slug === named.slug) ? [...nearest, named] : nearest
  const bicycles = types.filter((type) => type.registrable)
  const products = await Promise.all(bicycles.map((type) => api.catalogue.products(type.slug)))
  const groups = bicycles
    .map((type, index) => ({
      type: type.name,
      models: (products[index] ?? []).map(({ slug, name }) => ({ slug, name })),
    }))
    .filter((group) => group.models.length > 0)
  const offering = all.filter((dealer) => dealer.services.test_rides && dealer.hours.some((day) => day.length > 0))
  const collator = new Intl.Collator(market.tag)
  const sorted =
    origin.from === 'centre'
      ? [...offering]
          .sort((a, b) => collator.compare(a.city, b.city) || collator.compare(a.name, b.name))
          .map((dealer) => ({ ...dealer, distanceKm: null }))
      : byDistance(offering, origin.point).map((dealer) => ({ ...dealer, distanceKm: dealer.distance_km }))
  const dealers = sorted.map(({ slug, name, city, hours, distanceKm }) => ({
    slug,
    name,
    city,
    distanceKm,
    open: hours.map((day) => (day.length > 0 ? '1' : '0')).join(''),
  }))
  return { groups, dealers, origin, near, window: testRideWindow() }
}

/** The dealer `?dealer=` names (a dealer's page links to the form with it), or null: one read by its slug. */
async function namedDealer(c: Context<MarketEnv>): Promise<Dealer | null> {
  const slug = c.req.query('dealer') ?? ''
  return /^[a-z0-9-]{1,80}$/.test(slug) ? await c.var.api.dealers.one(slug).catch(() => null) : null
}

/** The day names of a language, Monday first (`lunedì` … `domenica`). */
function weekdayNames(locale: string): string[] {
  const format = new Intl.DateTimeFormat(locale, { weekday: 'long', timeZone: 'UTC' })
  // 2024-01-01 was a Monday.
  return Array.from({ length: 7 }, (_, day) => format.format(new Date(Date.UTC(2024, 0, 1 + day))))
}

/**
 * A dealer's opening days as a sentence's part: "every day", or runs of three days or more as a range and the others
 * by name ("Monday to Friday and Sunday"). The week is read from Monday, unless a range runs over the weekend into
 * Monday: then from its first day, so a shop open Sunday to Friday reads so.
 */
export function openDaysText(view: View, open: string): string {
  const { t } = view
  if (!open.includes('0')) return t('test_ride.every_day')
  const names = weekdayNames(view.locale)
  // The run from after the last closed day, over Sunday, up to the first closed day.
  const wrapStart = open.lastIndexOf('0') + 1
  const wrapLength = 7 - wrapStart + open.indexOf('0')
  const start = open[0] === '1' && open[6] === '1' && wrapLength >= 3 ? wrapStart : 0
  const runs: number[][] = []
  let previousOpen = false
  for (let step = 0; step < 7; step++) {
    const day = (start + step) % 7
    const isOpen = open[day] === '1'
    const run = runs.at(-1)
    if (isOpen && previousOpen && run) run.push(day)
    else if (isOpen) runs.push([day])
    previousOpen = isOpen
  }
  const parts = runs.flatMap((run) =>
    run.length >= 3
      ? [t('test_ride.day_range', { first: names[run[0] ?? 0] ?? '', last: names[run.at(-1) ?? 0] ?? '' })]
      : run.map((day) => names[day] ?? ''),
  )
  return new Intl.ListFormat(view.locale, { type: 'conjunction' }).format(parts)
}

/** A dealer as the list names it: `Cicli Bergamasca — Bergamo · 3 km` (the distance when the visitor's place is known). */
const dealerLabel = ({ t }: View, dealer: RideDealer) =>
  `${isolate(dealer.name)} — ${isolate(dealer.city)}${dealer.distanceKm === null ? '' : ` · ${t('test_ride.km', { km: Math.round(dealer.distanceKm) })}`}`

/** What the dealer list is ordered by, said under it. */
function orderNote(view: View, data: RideData): string {
  const { t } = view
  if (data.dealers.length === 0) return t('test_ride.no_dealers')
  const { origin } = data
  if (origin.from === 'place') return t('dealer.nearest_to', { place: origin.place })
  if (origin.from === 'visitor' || origin.from === 'position') return t('dealer.near_you')
  return origin.unknownPlace ? t('test_ride.place_unknown', { place: origin.unknownPlace }) : t('test_ride.by_town')
}

/** The search above the form: a town or postcode reloads the page with the nearest dealers first, the model kept. */
function NearSearch({ view, data, values }: FieldsProps<RideData>) {
  const { t } = view
  const model = fieldValue(values, 'product')
  return (
    <form method="get" className="ride-near" role="search" aria-label={t('test_ride.near_title')}>
      {model && <input type="hidden" name="model" value={model} />}
      <div className="field">
        <label htmlFor="ride-near">{t('dealer.near_label')}</label>
        <p className="hint" id="ride-near-hint">
          {t('test_ride.near_hint')}
        </p>
        <input
          id="ride-near"
          name="near"
          type="search"
          defaultValue={data.near}
          maxLength={80}
          autoComplete="postal-code"
          aria-describedby="ride-near-hint"
        />
      </div>
      <button type="submit" className="button secondary">
        {t('dealer.near_submit')}
      </button>
    </form>
  )
}

/** The test ride's fields: the ride (model, dealer, day, part of day), then the rider. */
function RideFields({ view, data, values, errors }: FieldsProps<RideData>) {
  const { t } = view
  const text = textFields(view, values, errors)
  const dealer = fieldValue(values, 'dealer')
  const date = fieldValue(values, 'date')
  const days: Record<string, RideDealerDays> = Object.fromEntries(
    data.dealers.map((d) => [
      d.slug,
      { open: d.open, note: t('test_ride.open_days', { dealer: isolate(d.name), days: openDaysText(view, d.open) }) },
    ]),
  )
  return (
    <div className="test-ride">
      <fieldset className="form-group">
        <legend>{t('test_ride.ride_legend')}</legend>
        <Field view={view} name="product" label={t('forms.field.model')} errors={errors}>
          {({ id, invalid, describedBy }) => (
            <select
              id={id}
              name="product"
              required
              aria-invalid={invalid || undefined}
              aria-describedby={describedBy}
              defaultValue={fieldValue(values, 'product')}
            >
              <option value="">{t('test_ride.choose_model')}</option>
              {data.groups.map((group) => (
                <optgroup key={group.type} label={group.type}>
                  {group.models.map((model) => (
                    <option key={model.slug} value={model.slug}>
                      {model.name}
                    </option>
                  ))}
                </optgroup>
              ))}
            </select>
          )}
        </Field>
        <Field view={view} name="dealer" label={t('forms.field.dealer')} hint={orderNote(view, data)} errors={errors}>
          {({ id, invalid, describedBy }) => (
            <select
              id={id}
              name="dealer"
              required
              aria-invalid={invalid || undefined}
              aria-describedby={describedBy}
              defaultValue={dealer}
            >
              <option value="">{t('test_ride.choose_dealer')}</option>
              {data.dealers.map((d) => (
                <option key={d.slug} value={d.slug}>
                  {dealerLabel(view, d)}
                </option>
              ))}
            </select>
          )}
        </Field>
        <div className="ride-when">
          <Field
            view={view}
            name="date"
            label={t('forms.field.date')}
            hint={t('test_ride.date_hint', { days: TEST_RIDE_DAYS_AHEAD })}
            errors={errors}
          >
            {({ id, invalid, describedBy }) => (
              <>
                <input
                  id={id}
                  name="date"
                  type="date"
                  required
                  dir="ltr"
                  min={data.window.first}
                  max={data.window.last}
                  defaultValue={/^\d{4}-\d{2}-\d{2}$/.test(date) ? date : ''}
                  aria-invalid={invalid || undefined}
                  aria-describedby={[describedBy, 'field-date-days'].filter(Boolean).join(' ')}
                />
                <Island
                  name={IslandNames.testRideDays}
                  component={TestRideDays}
                  props={{
                    dealers: days,
                    dealer: days[dealer] ? dealer : '',
                    date,
                    chooseDealer: t('test_ride.days_choose_dealer'),
                    closed: t('validation.dealer_closed'),
                    refused: Boolean(errors?.date?.includes('dealer_closed')),
                  }}
                />
              </>
            )}
          </Field>
          <ChoiceGroup
            view={view}
            type="radio"
            name="part_of_day"
            legend={t('forms.field.part_of_day')}
            options={PARTS_OF_DAY.map((part) => ({ value: part, label: t(`forms.part_of_day.${part}`) }))}
            checked={fieldValue(values, 'part_of_day')}
            errors={errors}
          />
        </div>
      </fieldset>
      <fieldset className="form-group">
        <legend>{t('test_ride.rider_legend')}</legend>
        <div className="field-row">
          {text('first_name', 'given-name', 80)}
          {text('last_name', 'family-name', 80)}
        </div>
        <div className="field-row">
          {text('email', 'email', 254, { type: 'email', dir: 'ltr' })}
          {text('phone', 'tel', 30, { type: 'tel', dir: 'ltr' })}
        </div>
        <TextAreaField
          view={view}
          name="message"
          label={t('forms.field.message')}
          hint={t('test_ride.message_hint')}
          optional
          rows={4}
          maxLength={2000}
          value={fieldValue(values, 'message')}
          errors={errors}
        />
      </fieldset>
    </div>
  )
}

/**
 * Book a test ride (the `test-drive` page): a bicycle the market sells, a dealer that offers test rides, a day it is
 * open and the part of the day, and the rider. `?model=` and `?dealer=` choose a model and a dealer when they are in
 * the lists (anything else is ignored); the API checks the choices again and refuses a closed day (`dealer_closed`).
 * Sent to the dealer and the market's sales recipient.
 */
export const testRideForm = leadForm<RideData>({
  page: 'test-drive',
  kind: 'test_ride',
  maxBytes: TEXT_FORM_BYTES,
  load: loadRide,
  prefill: (c, data): FormValues => {
    const model = c.req.query('model') ?? ''
    const dealer = c.req.query('dealer') ?? ''
    const values: FormValues = {}
    if (data.groups.some((group) => group.models.some((m) => m.slug === model))) values.product = model
    if (data.dealers.some((d) => d.slug === dealer)) values.dealer = dealer
    return values
  },
  Before: NearSearch,
  Fields: RideFields,
  send: (c, values, key) => checkAndSend(testRideRequest, values, key, (request) => c.var.api.forms.testRide(request)),
})
