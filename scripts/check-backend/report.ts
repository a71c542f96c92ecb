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
    const tag = area.required ? ' [required]' : area.declared ? ' [declared]' : ''
    lines.push(`${MARK[area.outcome]} ${area.name}${tag}: ${what}`)
    for (const call of area.calls)
      if (call.outcome === 'fails') lines.push(`     ${call.call}: ${call.detail ?? `answered ${call.status}`}`)
    if (area.note) lines.push(`     ${area.note}`)
    if (couldBeDeclared(report, area)) lines.push(`     could be declared: add ${area.id} to UPSTREAM_AREAS`)
  }
  lines.push('', verdict(report))
  return lines.join('\n')
}

/**
 * The check in a few lines, as `npm start` prints it before serving: the verdict, the declared areas that fail (by
 * name), the areas that could be declared.
 *
 * @example
 * console.log(summaryText(await checkBackend({ base, fetch, declared })))
 */
export function summaryText(report: BackendReport): string {
  const lines = [verdict(report)]
  for (const area of notConforming(report))
    lines.push(`  ${area.declared ? `declared area ${area.id}` : area.name}: ${area.outcome} (${firstProblem(area)})`)
  const hints = report.areas.filter((area) => couldBeDeclared(report, area)).map((area) => area.id)
  if (hints.length) lines.push(`  could be declared in UPSTREAM_AREAS: ${hints.join(', ')}`)
  return lines.join('\n')
}

/** The required and declared areas that do not conform. */
const notConforming = (report: BackendReport) =>
  report.areas.filter((area) => (area.required || area.declared) && area.outcome !== 'conforms')

/** An optional area the backend serves in conformance that the deployment does not declare (when it declares any). */
const couldBeDeclared = (report: BackendReport, area: BackendReport['areas'][number]) =>
  report.declaring && !area.required && !area.declared && area.outcome === 'conforms'

/** The area's first call that did not conform, as `GET api/…: why`. */
const firstProblem = (area: BackendReport['areas'][number]) => {
  const call = area.calls.find((each) => each.outcome !== 'conforms')
  return call ? `${call.call}: ${call.detail ?? `answered ${call.status}`}` : area.outcome
}

/** The last line: every required and declared area conforms, or which do not. */
function verdict(report: BackendReport): string {
  if (report.passed)
    return report.declaring ? 'PASS: every required and declared area conforms' : 'PASS: every required area conforms'
  const failing = notConforming(report)
  const required = failing.filter((area) => area.required).map((area) => area.name)
  const declared = failing.filter((area) => area.declared).map((area) => area.name)
  return `FAIL: ${[
    required.length ? `required area(s) not conforming: ${required.join(', ')}` : '',
    declared.length ? `declared area(s) not conforming: ${declared.join(', ')}` : '',
  ]
    .filter(Boolean)
    .join('; ')}`
}
