/** The part of the Trusted Types API used here (Chromium has it; elsewhere `window.trustedTypes` is undefined). */
interface TrustedTypePolicyFactory {
  createPolicy(name: string, rules: { createScriptURL?(input: string): string }): unknown;
}

/** Whether a script at this address may run in the page: only Whistle's own files (the remotes are same-origin). */
export function isOwnScriptUrl(input: string, page: Pick<Location, 'href' | 'origin'> = window.location): boolean {
  try {
    return new URL(input, page.href).origin === page.origin;
  } catch {
    return false;
  }
}

/**
 * The staff pages' CSP requires Trusted Types for script (`require-trusted-types-for 'script'`): a string reaching
 * a script sink (script.src, new Worker) is refused unless a policy vouches for it. webpack's chunk loader, the
 * federation runtime loading a remote's entry, the CSV export's and the password derivation's workers assign plain
 * same-origin URLs; this default policy lets exactly those through and turns any other address (an injected one)
 * into an error. It has no createHTML: markup reaches the DOM only through the named policies of the pages that
 * need one.
 */
export function installDefaultTrustedTypesPolicy(
  factory = (window as unknown as { trustedTypes?: TrustedTypePolicyFactory }).trustedTypes,
): void {
  factory?.createPolicy('default', {
    createScriptURL(input) {
      if (isOwnScriptUrl(input)) return input;
      throw new TypeError('Only Whistle’s own scripts may be loaded');
    },
  });
}
