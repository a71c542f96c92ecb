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

/** The CSP hash sources (`'sha256-…'`) of registered inline scripts. */
export async function inlineScriptHashes(codes: Iterable<string>): Promise<string[]> {
  return Promise.all(
    [...codes].map(
      async (code) => `'sha256-${base64(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(code)))}'`,
    ),
  )
}

function base64(buffer: ArrayBuffer): string {
  return btoa(String.fromCharCode(...new Uint8Array(buffer)))
}
