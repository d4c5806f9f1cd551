import { z } from 'zod';

// In a browser, zod would probe `new Function` to compile faster parsers; Whistle's pages forbid eval
// (CSP, Trusted Types), so every page that parses would report a violation. Set before any schema is made:
// zod reads the setting when a schema is built. Services keep the compiled parsers.
if (typeof window !== 'undefined') z.config({ jitless: true });

export { z };
