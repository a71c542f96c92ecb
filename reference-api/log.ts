/**
 * The reference API's log lines: one JSON object a line, as the site writes its own. Callers pass names and counts,
 * never tokens, passwords or form content.
 */

type Level = 'info' | 'warn' | 'error'

/** Writes one structured log line. */
export function logEvent(level: Level, event: string, fields: Record<string, unknown> = {}): void {
  const line = JSON.stringify({ level, event, ...fields })
  if (level === 'error') console.error(line)
  else if (level === 'warn') console.warn(line)
  else console.log(line)
}

/** An error's name and message without its stack. */
export function errorName(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error)
}

/** The calls whose last segment is a secret (a reset or confirmation token): logged as `:token`. */
const SECRET_AFTER = new Set(['reset-password', 'confirm-email', 'confirm'])

/** A call's path as it may be logged: the token in it replaced. */
export function loggablePath(path: string): string {
  const segments = path.split('/')
  return segments
    .map((segment, i) => (i > 0 && SECRET_AFTER.has(segments[i - 1] as string) ? ':token' : segment))
    .join('/')
}
