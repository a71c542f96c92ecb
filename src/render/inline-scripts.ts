/**
 * The inline scripts a browser would run: `<script>` elements without `src` whose type is none, JavaScript or a
 * module (JSON and JSON-LD blocks are data, never run, and need no hash). React writes a script's text as given.
 */
const INLINE_SCRIPT = /<script\b(?![^>]*\ssrc=)([^>]*)>([\s\S]*?)<\/script>/g
const RUNS = /\stype="(?:module|text\/javascript|application\/javascript)"|^(?![\s\S]*\stype=)/

/**
 * The CSP hash sources (`'sha256-…'`) of a whole page's inline scripts, in the order they appear, each once.
 *
 * @example
 * await inlineScriptHashes('<script>go()</script>') // ["'sha256-…'"]
 */
export async function inlineScriptHashes(html: string): Promise<string[]> {
  const texts = new Set<string>()
  for (const [, attributes, text] of html.matchAll(INLINE_SCRIPT)) if (RUNS.test(attributes ?? '')) texts.add(text ?? '')
  return Promise.all([...texts].map(async (text) => `'sha256-${base64(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)))}'`))
}

function base64(buffer: ArrayBuffer): string {
  return btoa(String.fromCharCode(...new Uint8Array(buffer)))
}
