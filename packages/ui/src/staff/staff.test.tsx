import { useEffect } from 'react';
import type { i18n } from 'i18next';
import { act, render, screen, waitFor } from '@testing-library/react';
import { RouterProvider, createMemoryRouter, type RouteObject } from 'react-router';
import type { StaffKeyring, StaffSession, StaffState } from '@whistle/api-client';
import { initTestI18n } from '../../../../tools/webpack/test-i18n';
import { renderWithI18n } from '../../test/render';
import { StaffFrame, StaffSessionContext, staffLifecycles, staffRoutes, useStaffSession, useStaffState } from './index';

const state = (fullName: string) =>
  ({
    profile: { uuid: 'u', email: 'ada@acme.example', full_name: fullName, roles: ['ADMIN'], mfa_auth_factor_id: null },
    company: { url_identifier: 'acme' },
  }) as unknown as StaffState;

/** A session whose reloads reach subscribers, as the shell's does. */
function fakeSession(initial = state('Ada Lovelace')) {
  const listeners = new Set<(state: StaffState) => void>();
  return {
    api: { baseUrl: '', headers: () => ({}), request: jest.fn() },
    staff: jest.fn(async () => initial),
    reloadStaff: jest.fn(),
    subscribe: (listener: (state: StaffState) => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    replaceToken: jest.fn(),
    // The frame never touches keys: any use of the keyring here is a bug.
    keyring: new Proxy({} as StaffKeyring, {
      get: () => () => {
        throw new Error('no keys in the frame');
      },
    }),
    tell: (next: StaffState) => listeners.forEach((listener) => listener(next)),
    listeners,
  } satisfies StaffSession & Record<string, unknown>;
}

function Greeting() {
  const staff = useStaffState();
  return <h1>{staff ? `Hello ${staff.profile.full_name}` : 'Loading'}</h1>;
}

function Broken(): never {
  throw new Error('page failed');
}

function SideFrame({ children }: { children: React.ReactNode }) {
  return (
    <StaffFrame
      sidebar={{
        label: 'Settings',
        links: [
          { to: '/company/settings/account', label: 'Account' },
          { to: '/company/settings/locations', label: 'Locations' },
        ],
      }}
    >
      {children}
    </StaffFrame>
  );
}

const pages: RouteObject[] = [
  { path: 'settings/account', Component: Greeting },
  { path: 'settings/broken', Component: Broken },
];

let english: i18n;
beforeAll(async () => {
  english = await initTestI18n<i18n>('en');
  english.addResourceBundle('en', 'test-area', {
    notFound: { title: 'Nothing here', description: 'This test page does not exist.' },
  });
});

function open(
  path: string,
  session = fakeSession(),
  routes = staffRoutes({ namespace: 'test-area', Frame: SideFrame, pages }),
) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  renderWithI18n(
    <StaffSessionContext.Provider value={session}>
      <RouterProvider router={router} />
    </StaffSessionContext.Provider>,
    english,
  );
  return { router, session };
}

describe('staff frame and routes', () => {
  it('when a page opens, then it sits in the frame, its sidebar link is current, and the staff state follows reloads', async () => {
    const { session } = open('/company/settings/account');
    expect(await screen.findByRole('heading', { name: 'Hello Ada Lovelace' })).toBeInTheDocument();
    const sidebar = screen.getByRole('navigation', { name: 'Settings' });
    expect(sidebar.closest('main')).toContainElement(screen.getByRole('heading'));
    expect(screen.getByRole('link', { name: 'Account' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('link', { name: 'Locations' })).not.toHaveAttribute('aria-current');
    act(() => session.tell(state('Ada King')));
    expect(screen.getByRole('heading', { name: 'Hello Ada King' })).toBeInTheDocument();
  });

  it('when a path of the area has no page, then the remote’s own "page not found" shows inside the frame', async () => {
    open('/company/settings/locations');
    expect(await screen.findByRole('heading', { name: 'Nothing here' })).toBeInTheDocument();
    expect(screen.getByText('This test page does not exist.')).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Settings' })).toBeInTheDocument();
  });

  it('when a page fails, then Unexpected Application Error! shows inside the frame; without a sidebar the frame is the main column', async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      open('/company/settings/broken');
      expect(await screen.findByRole('alert')).toHaveTextContent('Unexpected Application Error!');
      expect(screen.getByRole('navigation', { name: 'Settings' })).toBeInTheDocument();
    } finally {
      jest.mocked(console.error).mockRestore();
    }
    document.body.innerHTML = '';
    open('/company/settings/account', fakeSession(), staffRoutes({ namespace: 'test-area', pages }));
    const heading = await screen.findByRole('heading', { name: 'Hello Ada Lovelace' });
    expect(heading.parentElement).toHaveClass('wh-main');
    expect(screen.queryByRole('navigation')).toBeNull();
  });

  it('when a page is rendered without the shell’s session, then it says so instead of calling without a token', () => {
    function NeedsSession() {
      useStaffSession();
      return null;
    }
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      expect(() => render(<NeedsSession />)).toThrow('A staff page is mounted without the shell’s staff session');
    } finally {
      jest.mocked(console.error).mockRestore();
    }
  });
});

describe('staff lifecycles', () => {
  it('when single-spa mounts the remote with the session prop, then its routes follow the browser history until unmounted', async () => {
    const visits: string[] = [];
    function Page() {
      useEffect(() => {
        visits.push(window.location.pathname);
      }, []);
      return <Greeting />;
    }
    const lifecycles = staffLifecycles(
      staffRoutes({ namespace: 'test-area', pages: [{ path: 'incidents', Component: Page }] }),
      'test-area',
    );
    window.history.pushState(null, '', '/company/incidents');
    const domElement = document.createElement('div');
    document.body.append(domElement);
    const props = { name: 'mfe_test', session: fakeSession(), domElement } as never;
    const listening = jest.spyOn(window, 'addEventListener');
    const unlistening = jest.spyOn(window, 'removeEventListener');
    await lifecycles.bootstrap(props);
    // As single-spa runs it, outside act(): single-spa-react resolves mount and unmount from the
    // rendered tree's own effects, which act() would hold back until the promise resolved.
    const actEnvironment = Reflect.get(globalThis, 'IS_REACT_ACT_ENVIRONMENT');
    Reflect.set(globalThis, 'IS_REACT_ACT_ENVIRONMENT', false);
    try {
      await lifecycles.mount(props);
      await waitFor(() => expect(domElement).toHaveTextContent('Hello Ada Lovelace'));
      expect(visits).toEqual(['/company/incidents']);

      const historyListener = listening.mock.calls.find(([type]) => type === 'popstate')?.[1];
      expect(historyListener).toBeDefined();

      await lifecycles.unmount(props);
      expect(domElement).toBeEmptyDOMElement();
      // The router stopped listening to history: it was disposed with the application.
      expect(unlistening).toHaveBeenCalledWith('popstate', historyListener);
    } finally {
      Reflect.set(globalThis, 'IS_REACT_ACT_ENVIRONMENT', actEnvironment);
      listening.mockRestore();
      unlistening.mockRestore();
    }
  });
});
