import { PASSWORD_MIN } from '../../contract/account-schemas'
import { type FieldErrors, Field } from './form-field'
import type { View } from './view'

/**
 * A new password under the site's rules and the same again: the fields of every form that sets one (the reset link's
 * page, the account's password change).
 */
export function NewPasswordFields({ view, errors }: { view: View; errors?: FieldErrors }) {
  const { t } = view
  return (
    <>
      <Field
        view={view}
        name="password"
        label={t('password.new_password')}
        type="password"
        autoComplete="new-password"
        minLength={PASSWORD_MIN}
        hint={t('password.rules', { min: PASSWORD_MIN })}
        errors={errors}
      />
      <Field
        view={view}
        name="password_confirmation"
        label={t('password.confirm_password')}
        type="password"
        autoComplete="new-password"
        errors={errors}
      />
    </>
  )
}
