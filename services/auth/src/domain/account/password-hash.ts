import { hash, verify } from '@node-rs/argon2';

/**
 * What the server keeps of a password: the argon2id hash of the authentication secret the browser derived from it
 * (itself already the output of Argon2id, docs/security.md "Keys"), or, for an account from before, of the
 * password. OWASP's argon2id profile (19 MiB, 2 passes): strong, and cheap enough for a 2-core node.
 */
export const passwordHashOptions = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (secret: string) => hash(secret, passwordHashOptions);
export const verifyPasswordHash = (stored: string, secret: string) => verify(stored, secret);

// An unknown address costs the same argon2 work as a known one, so timing does not tell which exist.
let dummyHash: Promise<string> | undefined;
export const dummyPasswordHash = () => (dummyHash ??= hashPassword('not a password of anyone'));
