import { LOGIN_PATH } from './paths'

/**
 * A `redirect` parameter as a same-site path (`/it-it/my-account?page=2`), or null: never another origin, a
 * protocol-relative `//host`, a backslash trick or a control character.
 */
export function redirectTarget(value: string | null | undefined): string | null {
  if (!value || value.length > 500 || !isSitePath(value)) return null
  const base = 'https://site.invalid'
  try {
    const url = new URL(value, base)
    // Checked again once normalised: `/..//evil.example` becomes `//evil.example`.
    const path = url.pathname + url.search
    return url.origin === base && isSitePath(path) ? path : null
  } catch {
    return null
  }
}

const isSitePath = (path: string) => path.startsWith('/') && !/^\/[/\\]|[\\\p{Cc}]/u.test(path)

/** The login page's URL, coming back to `path` afterwards. */
export const loginUrl = (path: string) => `${LOGIN_PATH}?redirect=${encodeURIComponent(path)}`
