import { GEOMETRY_MEASURES, formatMeasure, formatRiderHeight, measureUnit } from '../catalogue/spec-values'
import type { Product } from '../../contract/catalogue-schemas'
import { LtrValue } from './spec-value'
import { TableScroll } from './table-scroll'
import type { MarketView } from './view'

/**
 * A bicycle's size guide: which frame size fits which rider height, and the frame's geometry per size. A native
 * `<details>` (no JavaScript; the keyboard and screen readers know it), `#size-guide` for links from the sizes. The
 * geometry table scrolls sideways inside its own named box on a phone, never the page. Products without a size guide
 * (accessories, one-size bikes) show nothing.
 */
export function SizeGuide({ view, product }: { view: MarketView; product: Product }) {
  const rows = product.size_guide
  if (!rows) return null
  const { t, dir } = view
  const tag = view.market.tag
  const country = view.market.country
  return (
    <details className="size-guide" id="size-guide">
      <summary>{t('size_guide.open')}</summary>
      <div className="size-guide-body">
        <h2 id="size-guide-heights">{t('size_guide.heights_title')}</h2>
        <p>{t('size_guide.heights_intro')}</p>
        <table className="size-guide-heights">
          <thead>
            <tr>
              <th scope="col">{t('product.size')}</th>
              <th scope="col">{t('size_guide.rider_height')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.size}>
                <th scope="row">
                  <LtrValue text={row.size} dir={dir} />
                </th>
                <td>
                  <LtrValue text={formatRiderHeight(row.rider_height_cm, tag, country)} dir={dir} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <h2 id="size-guide-geometry">{t('size_guide.geometry_title')}</h2>
        <TableScroll labelledBy="size-guide-geometry">
          <table className="geometry">
            <thead>
              <tr>
                <th scope="col">{t('size_guide.measure')}</th>
                {rows.map((row) => (
                  <th scope="col" key={row.size} className="number">
                    <LtrValue text={row.size} dir={dir} />
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {GEOMETRY_MEASURES.map(([measure]) => (
                <tr key={measure}>
                  <th scope="row">
                    {measureUnit(measure) === 'mm' ? (
                      <>
                        {`${t(`size_guide.${measure}`)} `}
                        <span className="unit">
                          <LtrValue text="mm" dir={dir} />
                        </span>
                      </>
                    ) : (
                      t(`size_guide.${measure}`)
                    )}
                  </th>
                  {rows.map((row) => (
                    <td key={row.size} className="number">
                      <LtrValue text={formatMeasure(measure, row.geometry[measure], tag)} dir={dir} />
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      </div>
    </details>
  )
}
