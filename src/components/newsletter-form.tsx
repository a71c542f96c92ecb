import { HONEYPOT_FIELD } from '../forms/bot-checks'
import { FORM_TOKEN_FIELD } from '../forms/form-token'
import { type FieldErrors, Field, FormErrors } from './form-field'
import { ConsentField } from './lead-form-frame'
import type { MarketView } from './view'

/** The sign-up page's path in a market; the footer's form posts there. */
export const newsletterPath = (segment: string) => `/${segment}/newsletter`

/** What the form shows again after a post: the address and consent as typed, and the messages. */
export type NewsletterFormState = { email?: string; consent?: boolean; errors?: FieldErrors; message?: string }

type NewsletterFormProps = {
  view: MarketView
  token: string
  /** The market's privacy page, linked beside the consent. */
  privacyUrl: string | null
  /** The form's heading (its accessible name). */
  labelledBy: string
  /** Prefix of the fields' ids, so the footer's form and the page's never share one. */
  idPrefix: string
  state?: NewsletterFormState
}

/**
 * The newsletter sign-up: the address and the consent, the signed token and the honeypot (as the lead forms). A plain
 * POST to the market's `/newsletter` that works without JavaScript; the footer carries it on every market page.
 */
export function NewsletterForm({ view, token, privacyUrl, labelledBy, idPrefix, state = {} }: NewsletterFormProps) {
  const { t, market } = view
  return (
    <form
      method="post"
      action={newsletterPath(market.segment)}
      className="stacked-form newsletter-form"
      aria-labelledby={labelledBy}
      noValidate
    >
      <FormErrors view={view} errors={state.errors} message={state.message ? t(state.message) : null} />
      <input type="hidden" name={FORM_TOKEN_FIELD} value={token} />
      <div className="honeypot" aria-hidden="true">
        <label htmlFor={`${idPrefix}-homepage`}>{t('forms.honeypot')}</label>
        <input
          id={`${idPrefix}-homepage`}
          name={HONEYPOT_FIELD}
          type="text"
          tabIndex={-1}
          autoComplete="off"
          defaultValue=""
        />
      </div>
      <Field
        view={view}
        id={`${idPrefix}-email`}
        name="email"
        label={t('auth.email')}
        type="email"
        autoComplete="email"
        dir="ltr"
        maxLength={254}
        defaultValue={state.email}
        errors={state.errors}
      />
      <ConsentField
        view={view}
        id={`${idPrefix}-consent`}
        errors={state.errors}
        checked={state.consent === true}
        privacyUrl={privacyUrl}
        label="newsletter.consent"
        privacyText="newsletter.privacy_text"
      />
      <button type="submit" className="button">
        {t('newsletter.submit')}
      </button>
    </form>
  )
}
