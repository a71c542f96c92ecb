import type { Context } from 'hono'
import type { AppEnv } from '../../env'
import { ChoiceGroup, SelectField, TextAreaField } from '../../components/choice-fields'
import { Field } from '../../components/form-field'
import type { View } from '../../components/view'
import { countriesIn } from '../../i18n/countries'
import { checkAndSend, type FieldsProps, type FormValues, leadForm, listOf, valueOf } from '../../forms/lead-form'
import { partnerApplication, SHOP_SERVICES, YEARLY_VOLUMES } from '../../upstream/form-schemas'
import type { FieldErrors } from '../../components/form-field'

/** The country list of the request's language, and the market's country first chosen. */
type PartnerData = { countries: Array<{ code: string; name: string }> }

/** The company's details, the same in both applications. */
function CompanyFields({ view, data, values, errors }: FieldsProps<PartnerData>) {
  const { t } = view
  const text = (name: string, autoComplete: string, maxLength: number, extra: { optional?: boolean; type?: string; dir?: 'ltr'; hint?: string } = {}) => (
    <Field view={view} name={name} label={t(`forms.field.${name}`)} autoComplete={autoComplete} maxLength={maxLength} defaultValue={valueOf(values, name)} errors={errors} {...extra} />
  )
  return (
    <>
      <fieldset className="form-group">
        <legend>{t('forms.partner.company')}</legend>
        {text('company_name', 'organization', 160)}
        {text('registration_number', 'off', 40, { dir: 'ltr', hint: t('forms.partner.registration_hint') })}
        {text('address_line', 'street-address', 160)}
        <div className="field-row">
          {text('postal_code', 'postal-code', 12, { dir: 'ltr' })}
          {text('city', 'address-level2', 80)}
        </div>
        <SelectField
          view={view}
          name="country_code"
          label={t('forms.field.country')}
          options={data.countries.map((country) => ({ value: country.code, label: country.name }))}
          value={valueOf(values, 'country_code')}
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

function Message({ view, values, errors }: { view: View; values: FormValues; errors?: FieldErrors }) {
  return (
    <TextAreaField view={view} name="message" label={view.t('forms.field.message')} optional maxLength={3000} value={valueOf(values, 'message')} errors={errors} />
  )
}

const loadCountries = async (c: Context<AppEnv>): Promise<PartnerData> => ({
  countries: countriesIn(c.var.market.tag),
})

/** A new application starts in the market's country. */
const marketCountry = (c: Context<AppEnv>): FormValues => ({ country_code: c.var.market.country.toUpperCase() })

/** Become a dealer: the company, the shop's services and the brands it carries; sent to the market's partner recipient. */
export const dealerForm = leadForm<PartnerData>({
  page: 'become-a-dealer',
  kind: 'dealer',
  lists: ['services'],
  load: loadCountries,
  prefill: marketCountry,
  Fields: (props) => {
    const { view, values, errors } = props
    const { t } = view
    return (
      <>
        <CompanyFields {...props} />
        <fieldset className="form-group">
          <legend>{t('forms.partner.shop')}</legend>
          <ChoiceGroup
            view={view}
            type="checkbox"
            name="services"
            legend={t('forms.field.services')}
            options={SHOP_SERVICES.map((service) => ({ value: service, label: t(`forms.service.${service}`) }))}
            checked={listOf(values, 'services')}
            errors={errors}
          />
          <TextAreaField view={view} name="brands" label={t('forms.field.brands')} hint={t('forms.partner.brands_hint')} rows={3} maxLength={500} value={valueOf(values, 'brands')} errors={errors} />
          <Message view={view} values={values} errors={errors} />
        </fieldset>
      </>
    )
  },
  send: (c, values, key) =>
    checkAndSend(partnerApplication, { ...values, kind: 'dealer', services: listOf(values, 'services') }, key, (application) => c.var.api.forms.partner(application)),
})

/** Become a distributor: the company, the territory and the yearly volume; sent to the market's partner recipient. */
export const distributorForm = leadForm<PartnerData>({
  page: 'become-a-distributor',
  kind: 'distributor',
  load: loadCountries,
  prefill: marketCountry,
  Fields: (props) => {
    const { view, values, errors } = props
    const { t } = view
    return (
      <>
        <CompanyFields {...props} />
        <fieldset className="form-group">
          <legend>{t('forms.partner.distribution')}</legend>
          <TextAreaField view={view} name="territory" label={t('forms.field.territory')} hint={t('forms.partner.territory_hint')} rows={3} maxLength={300} value={valueOf(values, 'territory')} errors={errors} />
          <SelectField
            view={view}
            name="yearly_volume"
            label={t('forms.field.yearly_volume')}
            options={YEARLY_VOLUMES.map((volume) => ({ value: volume, label: t(`forms.volume.${volume}`) }))}
            value={valueOf(values, 'yearly_volume')}
            placeholder={t('forms.partner.choose_volume')}
            errors={errors}
          />
          <Message view={view} values={values} errors={errors} />
        </fieldset>
      </>
    )
  },
  send: (c, values, key) => checkAndSend(partnerApplication, { ...values, kind: 'distributor' }, key, (application) => c.var.api.forms.partner(application)),
})
