// The test budget of `npm test`: each runner's time and its five slowest tests, and at the end of the run every test
// over its kind's limit, as a warning (never a failure: no test may depend on the machine's speed).
import { relative } from 'node:path'

/** What a test may take before it is listed as slow, by runner. */
export const SLOW_TEST_MS = { workerd: 10_000, chromium: 60_000 }

const slow = []

/** Every test of a vitest JSON report with its time: `file › title`. */
export function vitestTests(report, root) {
  return (report?.testResults ?? []).flatMap((file) =>
    file.assertionResults.map((test) => ({
      name: `${relative(root, file.name)} › ${test.fullName}`,
      ms: test.duration ?? 0,
    })),
  )
}

/** Every test of a Playwright JSON report with the time of its last try: `file › title`. */
export function playwrightTests(report) {
  const walk = (suite, titles) => [
    ...(suite.specs ?? []).flatMap((spec) =>
      spec.tests.map((test) => ({
        name: [suite.file ?? spec.file, ...titles, spec.title].filter(Boolean).join(' › '),
        ms: test.results.at(-1)?.duration ?? 0,
      })),
    ),
    ...(suite.suites ?? []).flatMap((child) =>
      walk(child, child.title && child.title !== child.file ? [...titles, child.title] : titles),
    ),
  ]
  return (report?.suites ?? []).flatMap((suite) => walk(suite, []))
}

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`

/** Prints a runner's time and its five slowest tests, and keeps the tests over `limitMs` for the end of the run. */
export function reportTimings(runner, wallMs, tests, limitMs) {
  console.log(`${runner}: ${seconds(wallMs)} in all; the five slowest tests:`)
  for (const test of [...tests].sort((a, b) => b.ms - a.ms).slice(0, 5))
    console.log(`  ${seconds(test.ms).padStart(8)}  ${test.name}`)
  slow.push(...tests.filter((test) => test.ms > limitMs).map((test) => ({ ...test, runner, limitMs })))
}

/** The tests over their limit, listed last (before the totals) with their times. */
export function reportSlowTests() {
  if (!slow.length) return
  console.log(`\nSlow tests (a warning, not a failure): ${slow.length}`)
  for (const test of slow.sort((a, b) => b.ms - a.ms))
    console.log(`  ${seconds(test.ms).padStart(8)} (limit ${seconds(test.limitMs)}, ${test.runner})  ${test.name}`)
}
