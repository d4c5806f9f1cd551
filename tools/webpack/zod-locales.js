// zod's locales index for the browser bundles: English only, the language zod installs by default. The pages show
// their own messages, never zod's; zod's `z` namespace re-exports every locale (`z.locales`), which no bundle can then
// leave out: ≈ 180 KB of each staff frontend's zod chunk, a third of it.
export { default as en } from 'zod/v4/locales/en.js';
