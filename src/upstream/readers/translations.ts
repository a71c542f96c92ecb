import { z } from 'zod'
import type { Messages } from '../../../contract/schemas'

const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype'])

/**
 * The brand's translation resource made the site's nested texts: flat dotted keys (`home.title`, as a Laravel
 * resource keeps them) and nested groups both read, a text that is no string (a number, null) left out rather than
 * failing the whole resource. Keys the resource lacks fall back in the translator (src/i18n/translator.ts).
 */
function textsOf(resource: unknown, root: Messages = {}, prefix: string[] = []): Messages {
  if (typeof resource !== 'object' || resource === null || Array.isArray(resource)) return root
  for (const [key, value] of Object.entries(resource)) {
    const path = [...prefix, ...key.split('.')]
    if (path.some((part) => part === '' || UNSAFE_KEYS.has(part))) continue
    if (typeof value === 'string') place(root, path, value)
    else textsOf(value, root, path)
  }
  return root
}

/** Puts a text at its path; a key that is both a text and a group keeps the group. */
function place(root: Messages, path: string[], text: string): void {
  const last = path[path.length - 1] ?? ''
  let node = root
  for (const part of path.slice(0, -1)) {
    const next = node[part]
    if (typeof next === 'object') node = next
    else {
      const child: Messages = {}
      node[part] = child
      node = child
    }
  }
  if (typeof node[last] !== 'object') node[last] = text
}

/** `GET api/country-wise-locale-content/{country}/{locale}`, read tolerantly. */
export const translationsAnswer = z.object({ data: z.unknown() }).transform(({ data }) => ({ data: textsOf(data) }))
