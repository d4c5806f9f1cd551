/** Spec §2: avatar colours, chosen by a hash of the name. Each keeps ≥ 4.5:1 contrast with white initials. */
export const AVATAR_COLOURS = [
  '#b91c1c',
  '#c2410c',
  '#a16207',
  '#4d7c0f',
  '#15803d',
  '#0f766e',
  '#0369a1',
  '#1d4ed8',
  '#6d28d9',
  '#a21caf',
  '#be123c',
] as const;

/** Initials from the first and last word of the name ('Ada King Lovelace' → 'AL', 'Ada' → 'A'). */
export function avatarInitials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return '';
  const first = [...words[0]][0];
  const last = words.length > 1 ? [...words[words.length - 1]][0] : '';
  return `${first}${last}`.toUpperCase();
}

/** A stable colour per name: a 32-bit string hash (Java's) over the UTF-16 units, modulo the palette. */
export function avatarColour(name: string): string {
  let hash = 0;
  for (let index = 0; index < name.length; index += 1) hash = (Math.imul(hash, 31) + name.charCodeAt(index)) | 0;
  return AVATAR_COLOURS[Math.abs(hash) % AVATAR_COLOURS.length];
}
