import i18next from 'i18next';
import { initReactI18next, useTranslation } from 'react-i18next';
import type { StaffSession } from '@whistle/api-client';
import { staffLifecycles } from './staff-lifecycles';
import { staffRoutes } from './staff-routes';

/** The remote's namespace comes over the network, as /locales/{lng}/{ns}.json does: a moment after it is asked. */
beforeAll(async () => {
  await i18next
    .use({
      type: 'backend',
      read(_language: string, namespace: string, callback: (error: null, data: object) => void) {
        const data = namespace === 'area' ? { greeting: 'Cases of Acme' } : {};
        setTimeout(() => callback(null, data), 20);
      },
    })
    .use(initReactI18next)
    .init({ lng: 'en', fallbackLng: false, ns: [], defaultNS: 'common', interpolation: { escapeValue: false } });
});

/** Whether the namespace was there each time React rendered the page. */
const renders: boolean[] = [];
function AreaPage() {
  renders.push(i18next.hasLoadedNamespace('area'));
  const { t } = useTranslation('area');
  return <h1>{t('greeting')}</h1>;
}

it('mounts a staff remote once its translations are loaded: the page never renders before them', async () => {
  const lifecycles = staffLifecycles(
    staffRoutes({ namespace: 'area', pages: [{ path: 'cases', Component: AreaPage }] }),
    'area',
  );
  window.history.pushState(null, '', '/company/cases');
  const domElement = document.createElement('div');
  document.body.append(domElement);
  const props = { name: 'mfe_area', session: {} as StaffSession, domElement } as never;
  // As single-spa runs it, outside act() (see staff.test.tsx).
  const actEnvironment = Reflect.get(globalThis, 'IS_REACT_ACT_ENVIRONMENT');
  Reflect.set(globalThis, 'IS_REACT_ACT_ENVIRONMENT', false);
  try {
    await lifecycles.bootstrap(props);
    await lifecycles.mount(props);
    expect(domElement.querySelector('h1')).toHaveTextContent('Cases of Acme');
    // A render before the translations suspends: in a browser a spinner is drawn, and React then keeps the page
    // back until 300 ms after it (its fallback throttle). So the first render must already have them.
    expect(renders[0]).toBe(true);
    await lifecycles.unmount(props);
  } finally {
    Reflect.set(globalThis, 'IS_REACT_ACT_ENVIRONMENT', actEnvironment);
  }
});
