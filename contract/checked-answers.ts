/**
 * The answers the embedded API checked against a contract schema before answering (reference-api/context.ts
 * `respond`), by their `Response` object: the schema and the value it accepted. Both programs share this module when
 * the Worker embeds the API (docs/decisions/032), so the site's upstream client can take an answer its in-process
 * transport handed over as the API checked it, instead of reading its JSON and checking it again with the very same
 * schema (docs/decisions/066). Over HTTP no answer is ever found here.
 */
const checked = new WeakMap<Response, { schema: object; value: unknown }>()

/**
 * Remembers that `response` answers `value`, which `schema` accepted (its parsed output); answers the response.
 *
 * @example
 * return markChecked(c.json(value, status), schema, value)
 */
export function markChecked(response: Response, schema: object, value: unknown): Response {
  checked.set(response, { schema, value })
  return response
}

/**
 * The value `response` answers as checked against this very `schema` (the same object), or undefined when it was
 * checked against another schema or not at all.
 *
 * @example
 * const value = checkedValue(response, overviewAnswer)
 */
export function checkedValue(response: Response, schema: object): { value: unknown } | undefined {
  const entry = checked.get(response)
  return entry && entry.schema === schema ? { value: entry.value } : undefined
}
