/** Where the login form posts and the login page lives (no market in the path: PRODUCT.md §3.2). */
export const LOGIN_PATH = '/login'
/** Where the forgot-password form posts. */
export const FORGOT_PASSWORD_PATH = '/login/forgot'
/** Where the header's logout button posts. */
export const LOGOUT_PATH = '/logout'
