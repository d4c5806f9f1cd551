import { existsSync } from 'node:fs';
import path from 'node:path';
import { Verifier, type VerifierOptions } from '@pact-foundation/pact';

/** Where every consumer test writes its pact (pacts/<consumer>-<provider>.json at the repository root). */
const pactsDir = path.resolve(__dirname, '..', '..', '..', 'pacts');

/**
 * A verification's time budget: each interaction sets up its provider state first, often a new account (Argon2id),
 * so a pact of 30 interactions outlasts jest's 30 s default on a loaded CI machine.
 */
export const PACT_VERIFICATION_TIMEOUT_MS = 120_000;

export interface ProviderPactOptions {
  consumer: string;
  provider: string;
  /** The provider, running on real dependencies. */
  baseUrl: string;
  stateHandlers?: VerifierOptions['stateHandlers'];
  requestFilter?: VerifierOptions['requestFilter'];
}

/**
 * Replays the pact `consumer` wrote for `provider` against the running provider. A missing pact fails:
 * `npm test` runs the frontends (consumers) before the services (providers).
 */
export async function verifyProviderPact({
  consumer,
  provider,
  baseUrl,
  stateHandlers,
  requestFilter,
}: ProviderPactOptions): Promise<void> {
  const pactFile = path.join(pactsDir, `${consumer}-${provider}.json`);
  if (!existsSync(pactFile))
    throw new Error(`${pactFile} is missing: run ${consumer}'s tests first (npm test runs consumers before providers)`);
  await new Verifier({
    provider,
    providerBaseUrl: baseUrl,
    providerVersion: '0.1.0',
    pactUrls: [pactFile],
    logLevel: 'warn',
    stateHandlers,
    requestFilter,
  }).verifyProvider();
}
