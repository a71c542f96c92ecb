import type { Context } from 'hono'
import type { ReactNode } from 'react'
import type { MarketEnv } from '../../env'
import { ChoiceGroup, SelectField, TextAreaField } from '../../components/choice-fields'
import { countriesIn } from '../../i18n/countries'
import {
  checkAndSend,
  type FieldsProps,
  type FormValues,
  leadForm,
  checkedValuesOf,
  fieldValue,
  TEXT_FORM_BYTES,
} from '../../forms/lead-form'
import { partnerApplication, SHOP_SERVICES, YEARLY_VOLUMES } from '../../../contract/form-schemas'
import { textFields } from '../../components/lead-form-fields'

/** The country list of the request's language, and the market's country first chosen. */
type PartnerData = { countries: Array<{ code: string; name: string }> }

/** The company's details, the same in both applications. */
function CompanyFields({ view, data, values, errors }: FieldsProps<PartnerData>) {
  const { t } = view
  const text = textFields(view, values, errors)
  return (
    <>
      <fieldset className="form-group">
        <legend>{t('forms.partner.company')}</legend>
        {text('company_name', 'organization', 160)}
        {text('registration_number', 'off', 40, { dir: 'ltr', hint: t('forms.partner.registration_hint') })}
        {text('address_line', 'address-line1', 160)}
        <div className="field-row">
          {text('postal_code', 'postal-code', 12, { dir: 'ltr' })}
          {text('city', 'address-level2', 80)}
        </div>
        <SelectField
          view={view}
          name="country_code"
          label={t('forms.field.country')}
          autoComplete="country"
          options={data.countries.map((country) => ({ value: country.code, label: country.name }))}
          value={fieldValue(values, 'country_code')}
          placeholder={t('forms.partner.choose_country')}
          errors={errors}
        />
        {text('website', 'url', 200, { optional: true, type: 'url', dir: 'ltr' })}
      </fieldset>
      <fieldset className="form-group">
        <legend>{t('forms.partner.contact')}</legend>
        {text('contact_name', 'name', 120)}
        {text('email', 'email', 254, { type: 'email', dir: 'ltr' })}
        {text('phone', 'tel', 30, { type: 'tel', dir: 'ltr' })}
      </fieldset>
    </>
  )
}

const loadCountries = async (c: Context<MarketEnv>): Promise<PartnerData> => ({
  countries: countriesIn(c.var.market.tag),
})

/** A new application starts in the market's country. */
const marketCountry = (c: Context<MarketEnv>): FormValues => ({ country_code: c.var.market.country.toUpperCase() })

/**
 * A partner application's form: the company's details, then its own group (`legend`), then the optional message;
 * sent as `kind` through `api/forms/partner`.
 */
function partnerForm(form: {
  page: string
  kind: 'dealer' | 'distributor'
  legend: string
  lists?: readonly string[]
  Specific: (props: FieldsProps<PartnerData>) => ReactNode
}) {
  const { Specific } = form
  return leadForm<PartnerData>({
    page: form.page,
    kind: form.kind,
    maxBytes: TEXT_FORM_BYTES,
    lists: form.lists,
    load: loadCountries,
    prefill: marketCountry,
    // biome-ignore lint/correctness/noComponentHookFactories: partnerForm runs once per form as the module loads, never in a render
    Fields: (props) => (
      <>
        <CompanyFields {...props} />
        <fieldset className="form-group">
          <legend>{props.view.t(form.legend)}</legend>
          <Specific {...props} />
          <TextAreaField
            view={props.view}
            name="message"
            label={props.view.t('forms.field.message')}
            optional
            maxLength={3000}
            value={fieldValue(props.values, 'message')}
            errors={props.errors}
          />
        </fieldset>
      </>
    ),
    send: (c, values, key) => {
      const lists = Object.fromEntries((form.lists ?? []).map((name) => [name, checkedValuesOf(values, name)]))
      return checkAndSend(partnerApplication, { ...values, ...lists, kind: form.kind }, key, (application) =>
        c.var.api.forms.partner(application),
      )
    },
  })
}

/** Become a dealer: the company, the shop's services and the brands it carries; sent to the market's partner recipient. */
export const dealerForm = partnerForm({
  page: 'become-a-dealer',
  kind: 'dealer',
  legend: 'forms.partner.shop',
  lists: ['services'],
  Specific: ({ view, values, errors }) => (
    <>
      <ChoiceGroup
        view={view}
        type="checkbox"
        name="services"
        legend={view.t('forms.field.services')}
        options={SHOP_SERVICES.map((service) => ({ value: service, label: view.t(`forms.service.${service}`) }))}
        checked={checkedValuesOf(values, 'services')}
        errors={errors}
      />
      <TextAreaField
        view={view}
        name="brands"
        label={view.t('forms.field.brands')}
        hint={view.t('forms.partner.brands_hint')}
        rows={3}
        maxLength={500}
        value={fieldValue(values, 'brands')}
        errors={errors}
      />
    </>
  ),
})

/** Become a distributor: the company, the territory and the yearly volume; sent to the market's partner recipient. */
export const distributorForm = partnerForm({
  page: 'become-a-distributor',
  kind: 'distributor',
  legend: 'forms.partner.distribution',
  Specific: ({ view, values, errors }) => (
    <>
      <TextAreaField
        view={view}
        name="territory"
        label={view.t('forms.field.territory')}
        hint={view.t('forms.partner.territory_hint')}
        rows={3}
        maxLength={300}
        value={fieldValue(values, 'territory')}
        errors={errors}
      />
      <SelectField
        view={view}
        name="yearly_volume"
        label={view.t('forms.field.yearly_volume')}
        options={YEARLY_VOLUMES.map((volume) => ({ value: volume, label: view.t(`forms.volume.${volume}`) }))}
        value={fieldValue(values, 'yearly_volume')}
        placeholder={view.t('forms.partner.choose_volume')}
        errors={errors}
      />
    </>
  ),
})
