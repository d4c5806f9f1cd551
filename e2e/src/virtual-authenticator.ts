import type { BrowserContext, CDPSession, Page } from 'playwright-core';

/** One of Chromium's virtual authenticators on a page (DevTools protocol, WebAuthn domain). */
export interface VirtualAuthenticator {
  readonly id: string;
  /** The credentials (passkeys) it holds: their ids in base64url, as the page and the server name them. */
  credentialIds(): Promise<string[]>;
  /** Whether it answers ceremonies by itself (a touch and a fingerprint read at once) or leaves them unanswered. */
  setPresent(present: boolean): Promise<void>;
}

/** The WebAuthn domain of `page`, enabled: authenticators added there answer the page's ceremonies. */
export async function webAuthnOf(context: BrowserContext, page: Page): Promise<CDPSession> {
  const session = await context.newCDPSession(page);
  // No UI: the virtual authenticators answer at once, as a platform authenticator would after the fingerprint read.
  await session.send('WebAuthn.enable', { enableUI: false });
  return session;
}

/**
 * A passkey-capable authenticator with the PRF extension (CTAP2 hmac-secret), which keeps discoverable credentials
 * and verifies the user: a device's built-in one (`internal`) or a security key (`usb`).
 */
export async function addPrfAuthenticator(
  session: CDPSession,
  transport: 'internal' | 'usb' = 'internal',
): Promise<VirtualAuthenticator> {
  const { authenticatorId: id } = await session.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      ctap2Version: 'ctap2_1',
      transport,
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      hasPrf: true,
      automaticPresenceSimulation: true,
    },
  });
  return {
    id,
    async credentialIds() {
      const { credentials } = await session.send('WebAuthn.getCredentials', { authenticatorId: id });
      // The protocol sends ids in standard base64; the page stores them in base64url.
      return credentials.map((credential) => Buffer.from(credential.credentialId, 'base64').toString('base64url'));
    },
    async setPresent(present) {
      await session.send('WebAuthn.setAutomaticPresenceSimulation', { authenticatorId: id, enabled: present });
    },
  };
}
