/**
 * Public webmail domains cannot open a company account: a whistleblowing channel belongs to an
 * organisation, and a personal address proves nothing about it. Operators extend the list with
 * ONBOARDING_BLOCKED_EMAIL_DOMAINS.
 */
export const publicMailDomains: readonly string[] = [
  'gmail.com',
  'googlemail.com',
  'yahoo.com',
  'yahoo.fr',
  'yahoo.co.uk',
  'hotmail.com',
  'hotmail.fr',
  'outlook.com',
  'outlook.fr',
  'live.com',
  'live.fr',
  'msn.com',
  'icloud.com',
  'me.com',
  'aol.com',
  'gmx.com',
  'gmx.de',
  'gmx.net',
  'web.de',
  'mail.com',
  'proton.me',
  'protonmail.com',
  'yandex.com',
  'yandex.ru',
  'mail.ru',
  'orange.fr',
  'free.fr',
  'laposte.net',
  'zoho.com',
];

export function emailDomainOf(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1).toLowerCase();
}

export function isBlockedDomain(domain: string, extraBlocked: readonly string[]): boolean {
  return publicMailDomains.includes(domain) || extraBlocked.includes(domain);
}
