import { z } from 'zod'
import { currencyCode, siteSchema, type Site } from '../../../contract/schemas'
import { logEvent } from '../../ops/log'
import { currencyOfSite } from './currency'

/**
 * A site record as the brand's own backend sends it (the original's shape, seed §3), made the contract's: no
 * `currency` (taken from its token or country, `currencyOfSite`), `urls` as absolute URLs on the brand's domain (read
 * as their paths); unknown fields are dropped by the schema. A record in the contract's shape is left as it is.
 */
function asContractSite(record: unknown): unknown {
  if (!isObject(record)) return record
  const country = isObject(record.country) ? record.country : {}
  return {
    ...record,
    urls: Array.isArray(record.urls) ? record.urls.map(pathOfUrl) : record.urls,
    currency: currencyCode.safeParse(record.currency).success
      ? record.currency
      : currencyOfSite(country, record.default_currency_token),
  }
}

/** `{ locale_code, url }` with an absolute URL (`https://www.brand.example/it-it`) read as its path (`/it-it`). */
function pathOfUrl(entry: unknown): unknown {
  if (!isObject(entry) || typeof entry.url !== 'string' || !/^https?:\/\//i.test(entry.url)) return entry
  try {
    return { ...entry, url: new URL(entry.url).pathname.replace(/(.)\/+$/, '$1') }
  } catch {
    return entry
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** One site record, in the contract's shape or the original's. */
export const siteRecord = z.preprocess(asContractSite, siteSchema)

/** `GET api/sites/{country}`, read tolerantly. */
export const siteRecordAnswer = z.object({ data: siteRecord })

/**
 * `GET api/sites`, read record by record: a record the site cannot read is dropped and logged (`site_record_invalid`,
 * with its slug and the first field at fault), never the whole list (one bad record would empty the market picker).
 */
export const siteListAnswer = z.object({ data: z.array(z.unknown()) }).transform(({ data }) => ({
  data: data.flatMap((record): Site[] => {
    const read = siteRecord.safeParse(record)
    if (read.success) return [read.data]
    const slug = isObject(record) && typeof record.slug === 'string' ? record.slug : null
    logEvent('warn', 'site_record_invalid', { slug, field: read.error.issues[0]?.path.join('.') ?? '' })
    return []
  }),
}))
