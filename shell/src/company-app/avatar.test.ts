import { AVATAR_COLOURS, avatarColour, avatarInitials } from './avatar';

describe('avatar', () => {
  it.each([
    ['Ada Lovelace', 'AL'],
    ['ada king lovelace', 'AL'],
    ['  Grace   Hopper ', 'GH'],
    ['Ada', 'A'],
    ['', ''],
    ['Émile Zola', 'ÉZ'],
  ])('when the name is %p, then the initials are %p', (name, initials) => {
    expect(avatarInitials(name)).toBe(initials);
  });

  it('when names differ, then the colours come from the 11-colour palette and one name always has the same colour', () => {
    expect(AVATAR_COLOURS).toHaveLength(11);
    const names = ['Ada Lovelace', 'Grace Hopper', 'Alan Turing', 'Barbara Liskov', 'Edsger Dijkstra', 'Donald Knuth'];
    const colours = names.map(avatarColour);
    for (const colour of colours) expect(AVATAR_COLOURS).toContain(colour);
    expect(names.map(avatarColour)).toEqual(colours);
    expect(new Set(colours).size).toBeGreaterThan(1);
  });
});
