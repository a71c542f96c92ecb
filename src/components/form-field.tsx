import type { InputHTMLAttributes, ReactNode } from 'react'
import type { View } from './view'

/** A form's messages: the `validation.*` keys per field name, as `fieldErrors` gives them. */
export type FieldErrors = Record<string, string[] | undefined>

type FieldProps = {
  view: View
  name: string
  label: string
  errors?: FieldErrors
  hint?: string
  optional?: boolean
  /** The control itself, for selects; an `<input>` otherwise. */
  children?: (control: { id: string; invalid: boolean; describedBy: string | undefined }) => ReactNode
} & Omit<InputHTMLAttributes<HTMLInputElement>, 'name' | 'children'>

/**
 * A labelled form field with its hint and its translated error, tied together for assistive technology
 * (`aria-invalid`, `aria-describedby`).
 */
export function Field({ view, name, label, errors, hint, optional, children, ...input }: FieldProps) {
  const id = input.id ?? `field-${name}`
  const messages = errors?.[name] ?? []
  const invalid = messages.length > 0
  const describedBy = [hint && `${id}-hint`, invalid && `${id}-error`].filter(Boolean).join(' ') || undefined
  return (
    <div className={invalid ? 'field invalid' : 'field'}>
      <label htmlFor={id}>
        {label}
        {optional && <span className="optional"> ({view.t('address.optional')})</span>}
      </label>
      {hint && (
        <p className="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {children ? (
        children({ id, invalid, describedBy })
      ) : (
        <input
          id={id}
          name={name}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          required={!optional}
          {...input}
        />
      )}
      {invalid && (
        <p className="field-error" id={`${id}-error`}>
          {messages.map((key) => view.t(`validation.${key}`)).join(' ')}
        </p>
      )}
    </div>
  )
}

/** The message above a form that came back with errors. */
export function FormErrors({ view, errors, message }: { view: View; errors?: FieldErrors; message?: string | null }) {
  const formMessages = errors?.form?.map((key) => view.t(`validation.${key}`)).join(' ')
  const text =
    message ?? (formMessages || (errors && Object.keys(errors).length > 0 ? view.t('validation.summary') : null))
  if (!text) return null
  return (
    <p className="form-error" role="alert">
      {text}
    </p>
  )
}
