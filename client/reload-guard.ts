/** The original site's reload guard: after a failed chunk load, reload at most once every 10 seconds. */
export const RELOAD_GUARD_MS = 10_000
const KEY = 'chunk-reload-at'

/**
 * Reloads the page when a chunk failed to load (typically: a deployment replaced the hashed files this page was built
 * with), unless it already did so in the last 10 s. Answers undefined, so the island simply stays server-rendered.
 */
export function reloadAfterFailedChunk(): undefined {
  const last = Number(sessionStorage.getItem(KEY) ?? 0)
  if (Date.now() - last > RELOAD_GUARD_MS) {
    sessionStorage.setItem(KEY, String(Date.now()))
    location.reload()
  }
  return undefined
}
