/**
 * What the shell's pacts and the auth provider's states share: the staff password and the salt its secret is
 * derived with, fixed so both sides derive the same authentication secret (the password itself is never sent).
 */
export const PACT_PASSWORD = 'correct horse battery staple';
export const PACT_KDF_SALT = 'cGFjdC1rZGYtc2FsdC0xMg';
