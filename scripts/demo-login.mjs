/** The demo customer (scripts/demo-seed.mjs), for local use only. */
const DEMO_CUSTOMER = { email: 'customer@example.com', password: 'Demo-Rider-2026!' }

/**
 * A customer's session cookie (`__Host-AuthTkn=…`), from the site's own login form at `origin` (the demo customer by
 * default): how the benchmarks and the render profile measure a logged-in page.
 */
export async function demoSessionCookie(origin, { email, password } = DEMO_CUSTOMER) {
  const answer = await fetch(`${origin}/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: origin },
    body: new URLSearchParams({ email, password }),
  })
  const cookie = answer.headers.getSetCookie().findLast((line) => line.startsWith('__Host-AuthTkn='))
  if (answer.status !== 303 || !cookie) throw new Error(`login answered ${answer.status}`)
  return cookie.split(';')[0]
}
