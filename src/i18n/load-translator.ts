import type { Lookups } from '../cache/lookups'
import { createTranslator, type Translator } from './translator'

/**
 * The translator of a market, from its cached texts. When the texts cannot be had at all, the page still renders in
 * the Worker's own English rather than failing.
 */
export async function loadTranslator(lookups: Lookups, country: string, locale: string): Promise<Translator> {
  const messages = await lookups.messages(country, locale).catch(() => null)
  return createTranslator(locale, messages)
}
