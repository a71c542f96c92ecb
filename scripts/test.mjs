// `npm test`: every test on a fresh clone — installs what is missing (npm packages, Debian's Chromium and Java), builds the
// client, then runs the formatter and linter's check (Biome), the typecheck, the workerd suite (unit + integration),
// the deploy check (tests/deploy), the bundle check and the browser suite, and ends with one line: `N passed, N failed`, the totals of every runner.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { ensureDependencies, quietEnv, root, run, runTool } from './local.mjs'
import { SLOW_TEST_MS, playwrightTests, reportSlowTests, reportTimings, vitestTests } from './test-timings.mjs'

const CHROMIUM = '/usr/bin/chromium'
const reports = join(root, 'test-results')
const totals = { passed: 0, failed: 0 }
const count = (name, passed, failed) => {
  totals.passed += passed
  totals.failed += failed
  console.log(`\n== ${name}: ${passed} passed, ${failed} failed\n`)
}

/** Installs Debian packages, as root or through sudo. */
function aptInstall(...packages) {
  const asRoot = process.getuid?.() === 0
  const aptGet = (...args) =>
    spawnSync(asRoot ? 'apt-get' : 'sudo', asRoot ? args : ['apt-get', ...args], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    })
  aptGet('update')
  aptGet('install', '-y', '--no-install-recommends', ...packages)
}

function ensureChromium() {
  if (existsSync(CHROMIUM)) return
  console.log("Installing Debian's Chromium for the browser tests…")
  aptInstall('chromium')
}

/** Java for the Nu HTML Checker (`vnu-jar`, tests/e2e/html-validity.spec.ts): Debian's, when none is on the path. */
function ensureJava() {
  if (spawnSync('java', ['-version'], { stdio: 'ignore' }).status === 0) return
  console.log("Installing Debian's Java for the Nu HTML Checker…")
  aptInstall('default-jre-headless')
}

/** A check that is one test: it passed when the command exits 0. */
function check(name, command, args) {
  const status = run(command, args, { allowFailure: true })
  count(name, status === 0 ? 1 : 0, status === 0 ? 0 : 1)
}

/**
 * Counts a runner's report; a runner that exited non-zero with nothing counted as failed (a crash, a failing hook,
 * an unhandled rejection, an interrupted run) counts one failure, so its exit status is never lost.
 */
function countRunner(name, status, passed, failed) {
  count(name, passed, failed === 0 && status !== 0 ? 1 : failed)
}

function vitest() {
  const file = join(reports, 'vitest.json')
  const started = Date.now()
  const status = runTool('vitest', ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${file}`], {
    allowFailure: true,
  })
  const report = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null
  if (!report) return count('workerd tests (vitest)', 0, 1)
  reportTimings('workerd tests (vitest)', Date.now() - started, vitestTests(report, root), SLOW_TEST_MS.workerd)
  const { numPassedTests = 0, numFailedTests = 0, numTotalTests = 0, numPendingTests = 0, numTodoTests = 0 } = report
  // A file that failed outside its tests (an import error, a failing hook) counts once; tests that never ran count too.
  const brokenFiles = (report.testResults ?? []).filter(
    (file) => file.status === 'failed' && !file.assertionResults.some((test) => test.status === 'failed'),
  ).length
  const neverRan = Math.max(0, numTotalTests - numPassedTests - numFailedTests - numPendingTests - numTodoTests)
  countRunner('workerd tests (vitest)', status, numPassedTests, numFailedTests + brokenFiles + neverRan)
}

function playwright() {
  const file = join(reports, 'playwright.json')
  const env = { ...quietEnv(), PLAYWRIGHT_JSON_OUTPUT_NAME: file }
  const started = Date.now()
  const status = runTool('playwright', ['test', '--reporter=list,json'], { allowFailure: true, env })
  const report = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null
  if (!report) return count('browser tests (playwright)', 0, 1)
  reportTimings('browser tests (playwright)', Date.now() - started, playwrightTests(report), SLOW_TEST_MS.chromium)
  const { expected = 0, unexpected = 0, flaky = 0, interrupted = 0 } = report.stats ?? {}
  // A test that passed only on its retry counts as passed, and says so.
  if (flaky > 0) console.log(`browser tests: ${flaky} passed only on their retry (flaky): see ${file}`)
  countRunner(
    'browser tests (playwright)',
    status,
    expected + flaky,
    unexpected + interrupted + (report.errors?.length ?? 0),
  )
}

if (!ensureDependencies({ allowFailure: true })) {
  console.log('0 passed, 1 failed')
  process.exit(1)
}
ensureChromium()
ensureJava()
rmSync(reports, { recursive: true, force: true })
mkdirSync(reports, { recursive: true })
check('demo content', 'node', ['demo/content/check.mjs'])
check('format and lint (biome ci)', 'npx', ['biome', 'ci', '--max-diagnostics=50', '.'])
check('client build (first-load budget)', 'node', ['scripts/build-client.mjs'])
check('typecheck', 'npx', ['tsc', '--noEmit', '-p', 'tsconfig.json'])
check('typecheck (node side)', 'npx', ['tsc', '--noEmit', '-p', 'tsconfig.node.json'])
// The deploy check against the committed wrangler.toml and a filled-in one (docs/decisions/052), and the runbook's
// commands against package.json, scripts/ and wrangler's own help (docs/decisions/055), in Node, no network.
check('deploy check (node --test tests/deploy/*.test.mjs)', process.execPath, [
  'scripts/tool.mjs',
  'node',
  '--test',
  'tests/deploy/deploy-check.test.mjs',
  'tests/deploy/runbook.test.mjs',
])
vitest()
check('worker bundle (wrangler deploy --dry-run)', 'node', ['scripts/bundle-size.mjs'])
playwright()

reportSlowTests()
console.log(`${totals.passed} passed, ${totals.failed} failed`)
process.exit(totals.failed === 0 ? 0 : 1)
