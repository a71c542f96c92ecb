import { createContext } from 'react'

/**
 * What a page's scripts carry as their nonce while it renders as one string: the answer puts its own nonce there
 * when it is made (`applyNonce`), so a page rendered once can be answered again with another. Only an attribute of
 * this exact form is replaced: page content is escaped by React or sanitised, and never produces one.
 */
export const NONCE_SLOT = 'nonce-of-this-answer'

/** The nonce the page's `<script>` elements carry: the slot, or the answer's own when it streams. */
export const ScriptNonce = createContext<string>(NONCE_SLOT)

/** A page rendered with the slot, with this answer's nonce in it. */
export const applyNonce = (html: string, nonce: string): string => html.replaceAll(`nonce="${NONCE_SLOT}"`, `nonce="${nonce}"`)
