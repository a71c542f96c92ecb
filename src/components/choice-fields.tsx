import type { TextareaHTMLAttributes } from 'react'
import { type FieldErrors, Field } from './form-field'
import type { View } from './view'

type Option = { value: string; label: string }

type SelectProps = {
  view: View
  name: string
  label: string
  options: readonly Option[]
  value: string
  errors?: FieldErrors
  /** The first, empty option ("Choose a model"); none when a value is always chosen. */
  placeholder?: string
  hint?: string
  optional?: boolean
  autoComplete?: string
}

/** A labelled select with its hint and error, keeping the chosen value. */
export function SelectField({
  view,
  name,
  label,
  options,
  value,
  errors,
  placeholder,
  hint,
  optional,
  autoComplete,
}: SelectProps) {
  return (
    <Field view={view} name={name} label={label} errors={errors} hint={hint} optional={optional}>
      {({ id, invalid, describedBy }) => (
        <select
          id={id}
          name={name}
          // A select without an empty first option always holds a value: HTML allows `required` only with one.
          required={!optional && placeholder !== undefined}
          aria-required={(!optional && placeholder === undefined) || undefined}
          autoComplete={autoComplete}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          defaultValue={value}
        >
          {placeholder !== undefined && <option value="">{placeholder}</option>}
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  )
}

type TextAreaProps = {
  view: View
  name: string
  label: string
  value: string
  errors?: FieldErrors
  hint?: string
  optional?: boolean
} & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'name' | 'value' | 'defaultValue'>

/** A labelled text area with its hint and error, keeping what was written. */
export function TextAreaField({ view, name, label, value, errors, hint, optional, ...area }: TextAreaProps) {
  return (
    <Field view={view} name={name} label={label} errors={errors} hint={hint} optional={optional}>
      {({ id, invalid, describedBy }) => (
        <textarea
          id={id}
          name={name}
          required={!optional}
          rows={6}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          defaultValue={value}
          {...area}
        />
      )}
    </Field>
  )
}

type GroupProps = {
  view: View
  name: string
  legend: string
  options: readonly Option[]
  errors?: FieldErrors
  hint?: string
} & ({ type: 'checkbox'; checked: readonly string[] } | { type: 'radio'; checked: string })

/**
 * A group of checkboxes or radio buttons in a fieldset: the legend names the group, the error and the hint are tied
 * to it, the chosen values are kept.
 */
export function ChoiceGroup({ view, name, legend, options, errors, hint, ...choice }: GroupProps) {
  const id = `field-${name}`
  const messages = errors?.[name] ?? []
  const invalid = messages.length > 0
  const describedBy = [hint && `${id}-hint`, invalid && `${id}-error`].filter(Boolean).join(' ') || undefined
  const isChecked = (value: string) =>
    choice.type === 'checkbox' ? choice.checked.includes(value) : choice.checked === value
  return (
    <fieldset
      className={invalid ? 'field choice-group invalid' : 'field choice-group'}
      id={id}
      aria-describedby={describedBy}
      role={choice.type === 'radio' ? 'radiogroup' : undefined}
    >
      <legend>{legend}</legend>
      {hint && (
        <p className="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      <div className="choices">
        {options.map((option, index) => (
          <label key={option.value} className="choice" htmlFor={`${id}-${index}`}>
            <input
              id={`${id}-${index}`}
              type={choice.type}
              name={name}
              value={option.value}
              defaultChecked={isChecked(option.value)}
              aria-invalid={invalid || undefined}
              aria-describedby={invalid ? `${id}-error` : undefined}
            />
            <span>{option.label}</span>
          </label>
        ))}
      </div>
      {invalid && (
        <p className="field-error" id={`${id}-error`}>
          {messages.map((key) => view.t(`validation.${key}`)).join(' ')}
        </p>
      )}
    </fieldset>
  )
}
