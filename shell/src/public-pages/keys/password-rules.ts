/** Long enough to resist guessing: checked in the browser, the only place that sees the password. */
export const MIN_PASSWORD_LENGTH = 10;
