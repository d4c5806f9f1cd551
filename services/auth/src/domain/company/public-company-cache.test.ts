import type { Database, NotificationListener, QueryResult } from '@whistle/service-kit';
import { createRecordingLogger } from '@whistle/service-kit/testing';
import { PublicCompanyCache } from './public-company-cache';

/** A database holding one company whose name the test changes, counting the view's reads. */
function fakeDatabase() {
  const state = { name: 'Acme', reads: 0, hold: false, listener: undefined as NotificationListener | undefined };
  let release: (() => void) | undefined;
  const db = {
    kind: 'postgres',
    async query<R>(_sql: string, params?: readonly unknown[]): Promise<QueryResult<R>> {
      state.reads += 1;
      const name = state.name;
      if (release === undefined && state.hold) await new Promise<void>((resolve) => (release = resolve));
      const row = {
        id: 'company-1',
        url_identifier: params?.[0],
        name,
        logo: null,
        logo_content_type: null,
        title: null,
        description: null,
        landing_texts: {},
        discloser_languages: null,
        default_language: 'en',
        public_key: 'pem',
        categories: [],
        locations: [],
      };
      return { rows: params?.[0] === 'acme' ? [row as R] : [], rowCount: 1 };
    },
    transaction: () => Promise.reject(new Error('not used')),
    async listen(_channel: string, listener: NotificationListener) {
      state.listener = listener;
      listener.listening();
      return { close: async () => undefined };
    },
    close: async () => undefined,
  } satisfies Database;
  return Object.assign(state, { db, release: () => release?.() });
}

/** The company's name in the view as it is sent. */
const nameIn = (company: { json: string }) => (JSON.parse(company.json) as { name: string }).name;

describe('PublicCompanyCache', () => {
  it('when listening, then a view is read once until its url_identifier is announced or its company forgotten here', async () => {
    const fake = fakeDatabase();
    const cache = new PublicCompanyCache(fake.db, createRecordingLogger());
    await cache.start();
    expect(nameIn(await cache.get('acme'))).toBe('Acme');
    await cache.get('acme');
    expect(fake.reads).toBe(1);

    fake.name = 'Acme 2';
    fake.listener!.notified('acme');
    expect(nameIn(await cache.get('acme'))).toBe('Acme 2');
    fake.name = 'Acme 3';
    cache.forget('company-1');
    expect(nameIn(await cache.get('acme'))).toBe('Acme 3');
    expect(fake.reads).toBe(3);
    await expect(cache.get('nobody')).rejects.toThrow('Company not found');
    await cache.stop();
  });

  it('when the listening connection is lost, then every request reads the database until it is back', async () => {
    const fake = fakeDatabase();
    const cache = new PublicCompanyCache(fake.db, createRecordingLogger());
    await cache.start();
    await cache.get('acme');
    fake.listener!.interrupted();
    fake.name = 'Changed while deaf';
    expect(nameIn(await cache.get('acme'))).toBe('Changed while deaf');
    await cache.get('acme');
    expect(fake.reads).toBe(3);
    fake.listener!.listening();
    await cache.get('acme');
    await cache.get('acme');
    expect(fake.reads).toBe(4);
    await cache.stop();
  });

  it('when a change is announced while a read is under way, then what that read saw is not kept', async () => {
    const fake = fakeDatabase();
    const cache = new PublicCompanyCache(fake.db, createRecordingLogger());
    await cache.start();
    fake.hold = true;
    const before = cache.get('acme');
    await new Promise((resolve) => setImmediate(resolve));
    fake.name = 'After';
    fake.listener!.notified('acme');
    fake.release();
    expect(nameIn(await before)).toBe('Acme');
    fake.hold = false;
    expect(nameIn(await cache.get('acme'))).toBe('After');
    await cache.stop();
  });
});
