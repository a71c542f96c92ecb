/**
 * The demo customer's session cookie (`__Host-AuthTkn=…`), from the site's own login form at `origin`: how the
 * benchmark and the render profile measure a logged-in page.
 */
export async function demoSessionCookie(origin) {
  const answer = await fetch(`${origin}/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: origin },
    body: new URLSearchParams({ email: 'customer@example.com', password: 'Demo-Rider-2026!' }),
  })
  const cookie = answer.headers.getSetCookie().findLast((line) => line.startsWith('__Host-AuthTkn='))
  if (answer.status !== 303 || !cookie) throw new Error(`login answered ${answer.status}`)
  return cookie.split(';')[0]
}
