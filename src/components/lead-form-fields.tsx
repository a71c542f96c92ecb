import type { FormValues } from '../forms/lead-form'
import { fieldValue } from '../forms/lead-form'
import { type FieldErrors, Field } from './form-field'
import type { View } from './view'

type TextOptions = { optional?: boolean; type?: string; dir?: 'ltr'; hint?: string }

/**
 * The lead forms' text inputs, labelled by `forms.field.{name}` and keeping what was posted.
 *
 * @example
 * const text = textFields(view, values, errors)
 * text('email', 'email', 254, { type: 'email', dir: 'ltr' })
 */
export function textFields(view: View, values: FormValues, errors: FieldErrors | undefined) {
  return (name: string, autoComplete: string, maxLength: number, options: TextOptions = {}) => (
    <Field
      view={view}
      name={name}
      label={view.t(`forms.field.${name}`)}
      autoComplete={autoComplete}
      maxLength={maxLength}
      defaultValue={fieldValue(values, name)}
      errors={errors}
      {...options}
    />
  )
}
