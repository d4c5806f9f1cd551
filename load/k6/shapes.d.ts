// Types of shapes.js for the TypeScript that checks it (test/k6-scripts.test.ts); k6 reads only the .js.
export interface Stage {
  duration: string;
  target: number;
}
export function shape(
  name: string | undefined,
  users: { steady: number; peak: number },
): { vus?: number; duration?: string; stages?: Stage[] };
