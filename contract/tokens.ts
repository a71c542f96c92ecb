/** What a token of the contract looks like (an access token, a reset or confirmation link's): 20 to 100 base64url characters. */
export const TOKEN_FORMAT = /^[A-Za-z0-9_-]{20,100}$/
