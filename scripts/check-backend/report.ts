import type { BackendReport } from './check'

const MARK = { conforms: 'ok', missing: '--', fails: 'XX', unchecked: '..' } as const

/**
 * The report as the command prints it: one line an area (required areas marked), its calls' failures beneath it,
 * and the verdict last.
 *
 * @example
 * console.log(reportText(await checkBackend({ base, fetch })))
 */
export function reportText(report: BackendReport): string {
  const market = report.market.country ? ` as ${report.market.country}-${report.market.locale ?? '?'}` : ''
  const lines = [`Checking ${report.base}${market}`, '']
  for (const area of report.areas) {
    const conforming = area.calls.filter((call) => call.outcome === 'conforms').length
    const what =
      area.outcome === 'missing'
        ? `missing (${area.calls[0]?.call} answered ${area.calls[0]?.status})`
        : `${area.outcome} (${conforming}/${area.calls.length} calls)`
    lines.push(`${MARK[area.outcome]} ${area.name}${area.required ? ' [required]' : ''}: ${what}`)
    for (const call of area.calls)
      if (call.outcome === 'fails') lines.push(`     ${call.call}: ${call.detail ?? `answered ${call.status}`}`)
    if (area.note) lines.push(`     ${area.note}`)
  }
  const failed = report.areas.filter((area) => area.required && area.outcome !== 'conforms').map((area) => area.name)
  lines.push(
    '',
    report.passed
      ? 'PASS: every required area conforms'
      : `FAIL: required area(s) not conforming: ${failed.join(', ')}`,
  )
  return lines.join('\n')
}
