import { installDefaultTrustedTypesPolicy, isOwnScriptUrl } from './trusted-types';

const page = { href: 'https://whistle.example/company/incidents', origin: 'https://whistle.example' };

describe('default Trusted Types policy', () => {
  it('when a script address is Whistle’s own, then it passes; another origin or a javascript: URL does not', () => {
    expect(isOwnScriptUrl('/remotes/mfe-incidents/remoteEntry.js', page)).toBe(true);
    expect(isOwnScriptUrl('https://whistle.example/470.b8c3e23b.js', page)).toBe(true);
    expect(isOwnScriptUrl('https://evil.example/x.js', page)).toBe(false);
    expect(isOwnScriptUrl('//evil.example/x.js', page)).toBe(false);
    expect(isOwnScriptUrl('javascript:alert(1)', page)).toBe(false);
    expect(isOwnScriptUrl('data:text/javascript,alert(1)', page)).toBe(false);
  });

  it('when installed, then the policy is the default one and refuses a foreign script address', () => {
    const createPolicy = jest.fn();
    installDefaultTrustedTypesPolicy({ createPolicy });
    const [name, rules] = createPolicy.mock.calls[0];
    expect(name).toBe('default');
    expect(rules.createHTML).toBeUndefined();
    expect(rules.createScriptURL(`${window.location.origin}/main.js`)).toBe(`${window.location.origin}/main.js`);
    expect(() => rules.createScriptURL('https://evil.example/x.js')).toThrow(TypeError);
  });

  it('when the browser has no Trusted Types, then nothing is installed and nothing fails', () => {
    expect(() => installDefaultTrustedTypesPolicy(undefined)).not.toThrow();
  });
});
