export type PickerMarket = { segment: string; label: string; locale: string }
export type PickerRegion = { name: string; markets: PickerMarket[] }

/**
 * The live markets grouped by region, one submit button each (`market={segment}`), inside a picker's form: the
 * landing page's and the header picker's.
 */
export function MarketRegions({ regions, current = null }: { regions: PickerRegion[]; current?: string | null }) {
  return (
    <>
      {regions.map((region) => (
        <fieldset key={region.name}>
          <legend>{region.name}</legend>
          <ul className="market-list">
            {region.markets.map((market) => (
              <li key={market.segment}>
                <button
                  type="submit"
                  name="market"
                  value={market.segment}
                  lang={market.locale}
                  aria-current={market.segment === current ? 'true' : undefined}
                >
                  {market.label}
                </button>
              </li>
            ))}
          </ul>
        </fieldset>
      ))}
    </>
  )
}
