import type { Context } from 'hono'

/** A posted form's text fields (files and repeated names dropped); an unreadable body is an empty form. */
export async function readForm(c: Context): Promise<Record<string, string>> {
  const body = await c.req.parseBody().catch(() => ({}))
  const form: Record<string, string> = {}
  for (const [name, value] of Object.entries(body)) if (typeof value === 'string') form[name] = value
  return form
}
