import type { Context } from 'hono'
import type { ReactNode } from 'react'
import type { z } from 'zod'
import type { FieldErrors } from '../components/form-field'
import type { View } from '../components/view'
import type { MarketEnv } from '../env'
import { fieldErrors } from '../../contract/fields'
import type { SubmissionKind } from '../../contract/form-schemas'
import { unlessRefused } from '../upstream/errors'

/**
 * The body limit of a form with long texts: a letter of Hebrew, Arabic or Greek takes 6 bytes once URL-encoded, so a
 * message of 5,000 characters needs 30 KB.
 */
export const TEXT_FORM_BYTES = 64 * 1024

/** A posted form's values: one text per field, a list for a checkbox group. */
export type FormValues = Record<string, string | string[]>

/** What a form's fields show: the values to keep (or prefill) and their messages. */
export type FieldsProps<Data> = { view: View; data: Data; values: FormValues; errors?: FieldErrors }

/** A submission sent: its reference upstream; or the fields' messages, from the Worker's check or the API's. */
export type Sent = { reference: string } | { errors: FieldErrors }

/**
 * One lead form: the content page it sits on (a pageLinks key), what it needs to show (dealers, positions), its
 * fields, and how it checks and sends what is posted. The page, the bot checks, the rate limit and the confirmation
 * are the same for all (src/pages/lead-form.tsx).
 */
export type LeadForm<Data = unknown> = {
  page: string
  kind: SubmissionKind
  /** The largest body its POST reads (the default 16 KiB; a form with long texts says more, see TEXT_FORM_BYTES). */
  maxBytes?: number
  /** Posted as `multipart/form-data` (a file). */
  multipart?: boolean
  /** Its checkbox groups: names posted more than once. */
  lists?: readonly string[]
  /** What its fields need, read for each form shown. */
  load(c: Context<MarketEnv>): Promise<Data>
  /** The values a new form starts with (`?model=`); unknown values are ignored. */
  prefill?(c: Context<MarketEnv>, data: Data): FormValues
  Fields(props: FieldsProps<Data>): ReactNode
  /** What the page shows between its text and the form's panel, if anything (the open positions). */
  Above?(props: { view: View; data: Data }): ReactNode
  /** What the form's panel shows above the form and outside it, if anything (the test ride's search near a town). */
  Before?(props: FieldsProps<Data>): ReactNode
  /**
   * Checks the posted values (with the submission's key) and sends them; `body` is the whole parsed body (files).
   * Null when the API has no such form (404).
   */
  send(
    c: Context<MarketEnv>,
    values: FormValues,
    submissionKey: string,
    body: Record<string, unknown>,
  ): Promise<Sent | null>
}

/** Declares a lead form (its type follows from `load`). */
export const leadForm = <Data>(form: LeadForm<Data>): LeadForm<Data> => form

/** A field's single value ('' when absent or a list). */
export const fieldValue = (values: FormValues, name: string): string => {
  const value = values[name]
  return typeof value === 'string' ? value : ''
}

/** A checkbox group's values. */
export const checkedValuesOf = (values: FormValues, name: string): string[] => {
  const value = values[name]
  return Array.isArray(value) ? value : value ? [value] : []
}

/**
 * The usual sending: the shared schema checks the values (messages per field), then the API takes them or refuses them
 * with its own messages (422); any other failure throws to the caller.
 *
 * @example
 * send: (c, values, key) => checkAndSend(contactMessage, values, key, (input) => c.var.api.forms.contact(input))
 */
export async function checkAndSend<S extends z.ZodType>(
  schema: S,
  values: FormValues,
  submissionKey: string,
  call: (input: z.infer<S>) => Promise<string | null>,
): Promise<Sent | null> {
  const input = schema.safeParse({ ...values, submission_key: submissionKey })
  if (!input.success) return { errors: fieldErrors(input.error) }
  const { answer, refused } = await unlessRefused(call(input.data), [422])
  if (refused) return { errors: refused.rejection.errors ?? { form: ['invalid'] } }
  return answer === null ? null : { reference: answer }
}
