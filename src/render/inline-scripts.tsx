import { createContext, useContext } from 'react'
import { ScriptNonce } from './nonce'

/**
 * The inline scripts a page's own components wrote while it rendered (`<InlineScript>`): on a page the page cache
 * keeps, these and only these are allowed, by their hashes. A script that reached the HTML any other way (content
 * that slipped through the sanitiser) is never registered, so never allowed.
 */
export const InlineScriptsContext = createContext<Set<string> | null>(null)

/**
 * An inline script of the site's own: it carries the answer's nonce when there is one, and is registered for its
 * hash otherwise.
 *
 * @example
 * <InlineScript code="window.dataLayer=window.dataLayer||[]" />
 */
export function InlineScript({ code }: { code: string }) {
  const nonce = useContext(ScriptNonce)
  useContext(InlineScriptsContext)?.add(code)
  // biome-ignore lint/security/noDangerouslySetInnerHtml: the site's own inline scripts, constants hashed for the CSP
  return <script nonce={nonce} dangerouslySetInnerHTML={{ __html: code }} />
}

const HASHES_LIMIT = 200
/** Each distinct script's hash source, computed once per isolate (a page's scripts are few and mostly the same). */
const hashes = new Map<string, string>()

/** The CSP hash sources (`'sha256-…'`) of registered inline scripts (or of a page's inline style). */
export async function inlineScriptHashes(codes: Iterable<string>): Promise<string[]> {
  return Promise.all([...codes].map(hashSource))
}

async function hashSource(code: string): Promise<string> {
  const known = hashes.get(code)
  if (known !== undefined) return known
  const source = `'sha256-${base64(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(code)))}'`
  if (hashes.size >= HASHES_LIMIT) hashes.delete(hashes.keys().next().value as string)
  hashes.set(code, source)
  return source
}

function base64(buffer: ArrayBuffer): string {
  return btoa(String.fromCharCode(...new Uint8Array(buffer)))
}
