import { z } from 'zod'
import { hasDirectionControls } from './direction-controls'

/**
 * The building blocks of the contract's input schemas (account and lead forms), shared by the Worker's forms and the
 * embedded API. Their messages are the keys of the translated `validation.*` texts, so one check gives both sides the
 * same answer.
 */

/**
 * How a text is written: on `one` line (a name, an address line, a company: its direction controls are refused with
 * `direction_control`, since one of them reorders what staff and mails show, docs/decisions/028) or over `many` (a
 * message, a cover letter: kept as written, controls included, for writers of right-to-left languages; staff pages
 * isolate it and mails drop the controls).
 */
export type Lines = 'one' | 'many'

export const text = (max: number, lines: Lines = 'one') => {
  const written = z.string({ error: 'required' }).trim().max(max, 'too_long')
  return lines === 'one' ? written.refine((value) => !hasDirectionControls(value), 'direction_control') : written
}
/** A text that must be given: empty is `required` alone, whatever else its schema checks. */
export const requiredText = (max: number, lines: Lines = 'one') =>
  text(max, lines).min(1, { error: 'required', abort: true })
/**
 * A person's name: no web or e-mail address in it, so that the acknowledgement the site mails to whatever address is
 * given cannot carry someone's link.
 */
export const personName = (max: number) =>
  requiredText(max).refine((value) => !/:\/\/|www\.|@|\.(com|net|org|ru|io|xyz)\b/i.test(value), 'name_link')

/** A form's empty field and JSON's null both mean "not given". */
export const optionalText = (max: number, lines: Lines = 'one') =>
  z
    .union([text(max, lines), z.null()])
    .optional()
    .transform((value) => value || null)

export const emailSchema = z
  .string({ error: 'required' })
  .trim()
  .toLowerCase()
  .min(1, { error: 'required', abort: true })
  .max(254, 'too_long')
  .email('email')

/** A phone number a person may write (`+39 035 555 0101`), or nothing. */
export const phoneSchema = z.union([text(30).regex(/^$|^\+?[0-9 ()./-]{6,30}$/, 'phone'), z.null()])
/** A phone number that must be given. */
export const requiredPhoneSchema = requiredText(30).regex(/^\+?[0-9 ()./-]{6,30}$/, 'phone')

/** A checkbox a form must have ticked (`on`), or JSON's `true`. */
export const ticked = (message: string) =>
  z.union([z.literal(true), z.literal('on')], { error: message }).transform(() => true as const)

/**
 * Whether `YYYY-MM-DD` names a day of the calendar: it must come back unchanged from a date (`Date.parse` takes
 * 2025-02-31 and makes it March 3).
 */
export function isCalendarDate(value: string): boolean {
  const time = Date.parse(`${value}T00:00:00Z`)
  return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === value
}

/** A failed check's messages by field (`{ serial_number: ['serial'] }`): the keys of the `validation.*` texts. */
export function fieldErrors(error: z.ZodError): Record<string, string[]> {
  const errors: Record<string, string[]> = {}
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? 'form')
    const key = messageKey(issue.message)
    const keys = errors[field] ?? []
    errors[field] = keys
    if (!keys.includes(key)) keys.push(key)
  }
  return errors
}

/** The messages of a failed check of one value (an e-mail address, a password). */
export const valueErrors = (error: z.ZodError): string[] => [
  ...new Set(error.issues.map((issue) => messageKey(issue.message))),
]

/** Our schemas' messages are text keys; anything else (zod's own words) is the generic one. */
const messageKey = (message: string) => (/^[a-z_]+$/.test(message) ? message : 'invalid')
