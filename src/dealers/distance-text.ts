/** A distance as the page's language writes it: one decimal under 10 km ("2,4" in Italian), whole kilometres above. */
export const formatKm = (km: number, tag: string): string =>
  new Intl.NumberFormat(tag, { maximumFractionDigits: km < 10 ? 1 : 0 }).format(
    km < 10 ? Math.round(km * 10) / 10 : Math.round(km),
  )
