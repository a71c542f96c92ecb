import type { Dealer } from '../../contract/catalogue-schemas'

/**
 * The time zone a dealer's opening hours are written in, by its country: one zone for most markets' countries; the
 * countries that span several (the United States, Mexico, Australia) by the dealer's longitude, west to east. A
 * country missing here reads its hours in UTC (docs/decisions/059).
 */
const ZONES: Record<string, ReadonlyArray<readonly [fromLng: number, zone: string]>> = {
  IT: [[-180, 'Europe/Rome']],
  ES: [[-180, 'Europe/Madrid']],
  GR: [[-180, 'Europe/Athens']],
  PT: [[-180, 'Europe/Lisbon']],
  DE: [[-180, 'Europe/Berlin']],
  FR: [[-180, 'Europe/Paris']],
  CH: [[-180, 'Europe/Zurich']],
  SI: [[-180, 'Europe/Ljubljana']],
  HR: [[-180, 'Europe/Zagreb']],
  NL: [[-180, 'Europe/Amsterdam']],
  AT: [[-180, 'Europe/Vienna']],
  BE: [[-180, 'Europe/Brussels']],
  GB: [[-180, 'Europe/London']],
  IL: [[-180, 'Asia/Jerusalem']],
  AE: [[-180, 'Asia/Dubai']],
  ZA: [[-180, 'Africa/Johannesburg']],
  US: [
    [-180, 'America/Los_Angeles'],
    [-114, 'America/Denver'],
    [-101, 'America/Chicago'],
    [-86, 'America/New_York'],
  ],
  MX: [
    [-180, 'America/Tijuana'],
    [-114, 'America/Mazatlan'],
    [-106, 'America/Mexico_City'],
    [-88, 'America/Cancun'],
  ],
  AU: [
    [-180, 'Australia/Perth'],
    [129, 'Australia/Adelaide'],
    [141, 'Australia/Sydney'],
  ],
}

/** The IANA time zone of a dealer's opening hours. */
export function dealerTimeZone({ country_code, lng }: Pick<Dealer, 'country_code' | 'lng'>): string {
  const bands = ZONES[country_code.toUpperCase()] ?? []
  let zone = 'UTC'
  for (const [fromLng, name] of bands) if (lng >= fromLng) zone = name
  return zone
}
