/** Where the login form posts and the login page lives (no market in the path: PRODUCT.md §3.2). */
export const LOGIN_PATH = '/login'
/** Where the forgot-password form posts. */
export const FORGOT_PASSWORD_PATH = '/login/forgot'
/** Where the header's logout button posts. */
export const LOGOUT_PATH = '/logout'
/** Where the sign-up form lives and posts (beside the login page, without a market). */
export const REGISTER_PATH = '/login/register'
/** "Check your mailbox", after the sign-up form. */
export const REGISTER_SENT_PATH = '/login/register/sent'
