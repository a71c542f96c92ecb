import { Hono } from 'hono'
import type { Messages } from '../../contract/schemas'
import { messagesAnswer } from '../../contract/schemas'
import { type ApiEnv, notFound, respond } from '../context'

/**
 * `GET api/country-wise-locale-content/{country}/{locale}`: a locale's UI texts as nested keys, with the country's
 * own wording (scope = country) over the locale's (scope = '*').
 */
export const translations = new Hono<ApiEnv>().get('/country-wise-locale-content/:country/:locale', async (c) => {
  const { country, locale } = c.req.param()
  if (!/^[a-z]{2,3}$/.test(country) || !/^[a-z]{2}$/.test(locale)) return notFound(c)
  const { results } = await c.env.DB.prepare(
    `SELECT key, value FROM translations WHERE locale = ? AND scope IN ('*', ?) ORDER BY scope <> '*'`,
  )
    .bind(locale, country)
    .all<{ key: string; value: string }>()
  if (results.length === 0) return notFound(c)
  return respond(c, messagesAnswer, { data: nest(results) })
})

const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype'])

/** `{ 'a.b': 'x' }` rows to `{ a: { b: 'x' } }`; a key that is both a text and a group keeps the group. */
function nest(rows: Array<{ key: string; value: string }>): Messages {
  const root: Messages = {}
  for (const { key, value } of rows) {
    const parts = key.split('.')
    if (parts.some((part) => UNSAFE_KEYS.has(part) || part === '')) continue
    const last = parts.pop() as string
    let node = root
    for (const part of parts) {
      const next = node[part]
      if (typeof next === 'object') node = next
      else {
        const child = {}
        node[part] = child
        node = child
      }
    }
    if (typeof node[last] !== 'object') node[last] = value
  }
  return root
}
