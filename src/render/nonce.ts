import { createContext } from 'react'

/**
 * What a page's scripts carry as their nonce while it renders as one string: the answer puts its own nonce there
 * when it is made (`applyNonce`), so a page rendered once can be answered again with another.
 */
export const NONCE_SLOT = 'nonce-of-this-answer'

/** The nonce the page's `<script>` elements carry: the slot, or the answer's own when it streams. */
export const ScriptNonce = createContext<string>(NONCE_SLOT)

/**
 * The slot in a `<script>` tag. Only there is it filled: page text that spells the slot out (an article about it)
 * is never given the nonce, and no content can make a script tag (React escapes `<`, the rich-text sanitiser drops
 * scripts).
 */
const SLOTTED_SCRIPT = new RegExp(`(<script\\b[^>]*\\snonce=")${NONCE_SLOT}(")`, 'g')

/** A page rendered with the slot, with this answer's nonce in its script tags. */
export const applyNonce = (html: string, nonce: string): string => html.replace(SLOTTED_SCRIPT, (_, before: string, after: string) => before + nonce + after)
