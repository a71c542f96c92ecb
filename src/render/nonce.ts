import { createContext } from 'react'

/**
 * The nonce a page's `<script>` elements carry: the answer's own when the page streams (React's inline scripts of the
 * stream carry it too); none when it is rendered whole, whose inline scripts are allowed by their hashes instead
 * (`render/inline-scripts.ts`), so that the same bytes can be answered again from the page cache.
 */
export const ScriptNonce = createContext<string | undefined>(undefined)
