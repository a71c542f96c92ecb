import type { ReactNode } from 'react'
import { FORM_TOKEN_FIELD } from '../forms/form-token'
import { HONEYPOT_FIELD } from '../forms/bot-checks'
import { TURNSTILE_ORIGIN } from '../forms/human-check'
import { type FieldErrors, FormErrors } from './form-field'
import { ScriptNonce } from '../render/nonce'
import type { View } from './view'

type FrameProps = {
  view: View
  /** The form's accessible name: the id of its heading. */
  labelledBy: string
  token: string
  errors?: FieldErrors
  /** A message for the whole form (`forms.unavailable`, `forms.expired`), as a text key. */
  message?: string
  multipart?: boolean
  /** The market's privacy page, linked beside the consent. */
  privacyUrl: string | null
  consentGiven: boolean
  turnstileSiteKey: string | null
  children: ReactNode
}

/**
 * What every lead form has around its fields: the signed token, the honeypot (hidden from people and assistive
 * technology; bots fill it), the messages, the privacy consent with its link, Turnstile's widget when configured, and
 * the button. A plain POST (multipart with a file) that works without JavaScript.
 */
export function LeadFormFrame(props: FrameProps) {
  const { view, labelledBy, token, errors, message, multipart, privacyUrl, consentGiven, turnstileSiteKey, children } =
    props
  const { t } = view
  return (
    <form
      method="post"
      className="stacked-form lead-form"
      aria-labelledby={labelledBy}
      encType={multipart ? 'multipart/form-data' : undefined}
      noValidate
    >
      <FormErrors view={view} errors={errors} message={message ? t(message) : null} />
      <p className="form-note">{t('forms.required_note')}</p>
      <input type="hidden" name={FORM_TOKEN_FIELD} value={token} />
      <div className="honeypot" aria-hidden="true">
        <label htmlFor="field-homepage">{t('forms.honeypot')}</label>
        <input id="field-homepage" name={HONEYPOT_FIELD} type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
      </div>
      {children}
      <ConsentField view={view} errors={errors} checked={consentGiven} privacyUrl={privacyUrl} />
      {turnstileSiteKey && <TurnstileWidget siteKey={turnstileSiteKey} language={view.locale} />}
      <button type="submit" className="button">
        {t('forms.send')}
      </button>
    </form>
  )
}

/** Turnstile's widget and its script (with the answer's nonce). */
function TurnstileWidget({ siteKey, language }: { siteKey: string; language: string }) {
  return (
    <>
      <div className="cf-turnstile" data-sitekey={siteKey} data-language={language} />
      <ScriptNonce.Consumer>
        {(nonce) => <script src={`${TURNSTILE_ORIGIN}/turnstile/v0/api.js`} async defer nonce={nonce} />}
      </ScriptNonce.Consumer>
    </>
  )
}

/**
 * The consent a form needs, with the privacy policy linked (or named, where the market has no such page), and its
 * message tied to it. `label` and `privacyText` are text keys (the lead forms' by default).
 */
export function ConsentField(props: {
  view: View
  errors?: FieldErrors
  checked: boolean
  privacyUrl: string | null
  label?: string
  privacyText?: string
  /** The checkbox's id (its hint's and message's ids start with it), for a page with two such forms. */
  id?: string
}) {
  const {
    view,
    errors,
    checked,
    privacyUrl,
    label = 'forms.consent',
    privacyText = 'forms.privacy_text',
    id = 'field-consent',
  } = props
  const { t } = view
  const consentErrors = errors?.consent ?? []
  return (
    <div className={consentErrors.length ? 'field consent-field invalid' : 'field consent-field'}>
      <input
        id={id}
        name="consent"
        type="checkbox"
        required
        defaultChecked={checked}
        aria-invalid={consentErrors.length > 0 || undefined}
        aria-describedby={[`${id}-privacy`, consentErrors.length && `${id}-error`].filter(Boolean).join(' ')}
      />
      <label htmlFor={id}>{t(label)}</label>
      <p className="hint" id={`${id}-privacy`}>
        {privacyUrl ? <a href={privacyUrl}>{t('forms.privacy_link')}</a> : t(privacyText)}
      </p>
      {consentErrors.length > 0 && (
        <p className="field-error" id={`${id}-error`}>
          {consentErrors.map((key) => t(`validation.${key}`)).join(' ')}
        </p>
      )}
    </div>
  )
}
