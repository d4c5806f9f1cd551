import { useEffect, useId, useRef, useState, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { navigateToUrl } from 'single-spa';
import { matchesPrefix } from '@whistle/contracts';
import { refreshToken, type StaffState } from '@whistle/api-client';
import { LanguageChooser } from '@whistle/ui';
import { staffSession } from '../session/staff-session';
import { writeToken } from '../session/token-storage';
import { INCIDENTS_PATH, accessRedirect, loginPathFor } from './access';
import { avatarColour, avatarInitials } from './avatar';
import { KeysPanel } from './keys-panel.component';
import './company-frame.css';

/** Tokens live 15 minutes: renewed well before, while the app is open. */
const REFRESH_EVERY_MS = 10 * 60 * 1000;

const NAVIGATION = [
  { path: INCIDENTS_PATH, key: 'incidents', adminOnly: false },
  { path: '/company/team', key: 'team', adminOnly: true },
  { path: '/company/reporting', key: 'reporting', adminOnly: true },
] as const;

function useCurrentPath() {
  const [path, setPath] = useState(() => window.location.pathname);
  useEffect(() => {
    const update = () => setPath(window.location.pathname);
    window.addEventListener('single-spa:routing-event', update);
    return () => window.removeEventListener('single-spa:routing-event', update);
  }, []);
  return path;
}

/** Follows a link through single-spa (no page load), letting modified clicks open new tabs. */
function followLink(event: MouseEvent<HTMLAnchorElement>) {
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  navigateToUrl(event.currentTarget.href);
}

/**
 * Top of the company app (spec §2): navigation, settings icon, avatar menu. It is also the route
 * guard: without a loadable profile and company the user goes to login with `next`; a path the
 * user's roles do not allow is replaced by the one spec §4/§6 name.
 */
export function CompanyFrame() {
  const { t } = useTranslation('shell');
  const path = useCurrentPath();
  const [state, setState] = useState<StaffState>();

  useEffect(() => staffSession.subscribe(setState), []);

  useEffect(() => {
    let current = true;
    staffSession.staff().then(
      (loaded) => {
        if (!current) return;
        setState(loaded);
        const target = accessRedirect(window.location.pathname, loaded.profile.roles);
        if (target) window.history.replaceState(null, '', target);
      },
      () => {
        if (current) navigateToUrl(loginPathFor(window.location));
      },
    );
    return () => {
      current = false;
    };
  }, [path]);

  useEffect(() => {
    const timer = window.setInterval(() => {
      refreshToken(staffSession.api).then(
        ({ token }) => writeToken(token),
        () => undefined,
      );
    }, REFRESH_EVERY_MS);
    return () => window.clearInterval(timer);
  }, []);

  const isAdmin = state?.profile.roles.includes('ADMIN') ?? false;
  return (
    <>
      <header className="wh-header shell-company-header">
        <div className="wh-header__brand">{t('brand')}</div>
        <nav aria-label={t('companyApp.navigation')} className="shell-company-nav">
          <ul>
            {NAVIGATION.filter((item) => !item.adminOnly || isAdmin).map((item) => (
              <li key={item.key}>
                <a
                  href={item.path}
                  onClick={followLink}
                  aria-current={matchesPrefix(path, item.path) ? 'page' : undefined}
                >
                  {t(`companyApp.${item.key}`)}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div className="wh-header__tools">
          <LanguageChooser />
          <a
            className="shell-settings-link"
            href="/company/settings/account"
            onClick={followLink}
            title={t('companyApp.settings')}
            aria-current={matchesPrefix(path, '/company/settings') ? 'page' : undefined}
          >
            <svg aria-hidden="true" viewBox="0 0 24 24" width="22" height="22">
              <path
                fill="currentColor"
                d="M19.4 13a7.5 7.5 0 0 0 0-2l2.1-1.6-2-3.4-2.5 1a7.3 7.3 0 0 0-1.7-1L15 3.4h-4l-.4 2.6a7.3 7.3 0 0 0-1.7 1l-2.5-1-2 3.4L6.6 11a7.5 7.5 0 0 0 0 2l-2.1 1.6 2 3.4 2.5-1a7.3 7.3 0 0 0 1.7 1l.4 2.6h4l.4-2.6a7.3 7.3 0 0 0 1.7-1l2.5 1 2-3.4ZM13 15.5a3.5 3.5 0 1 1 0-7 3.5 3.5 0 0 1 0 7Z"
                transform="translate(-1 0)"
              />
            </svg>
            <span className="wh-visually-hidden">{t('companyApp.settings')}</span>
          </a>
          {state && <AvatarMenu state={state} />}
        </div>
      </header>
      {state && <KeysPanel state={state} />}
    </>
  );
}

function AvatarMenu({ state }: { state: StaffState }) {
  const { t } = useTranslation('shell');
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const root = useRef<HTMLDivElement>(null);
  const name = state.profile.full_name;

  useEffect(() => {
    if (!open) return undefined;
    const close = (event: Event) => {
      if (event instanceof KeyboardEvent ? event.key === 'Escape' : !root.current?.contains(event.target as Node))
        setOpen(false);
    };
    document.addEventListener('mousedown', close);
    document.addEventListener('keydown', close);
    return () => {
      document.removeEventListener('mousedown', close);
      document.removeEventListener('keydown', close);
    };
  }, [open]);

  async function logOut() {
    await staffSession.signOut();
    navigateToUrl('/');
  }

  return (
    <div className="shell-avatar-menu" ref={root}>
      <button
        type="button"
        className="shell-avatar"
        style={{ backgroundColor: avatarColour(name) }}
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen((value) => !value)}
      >
        {/* The initials are decoration: the name says whose menu it is (no aria-label hiding what is seen). */}
        <span aria-hidden="true" className="shell-avatar__initials">
          {avatarInitials(name)}
        </span>
        <span className="wh-visually-hidden">{t('companyApp.accountMenu', { name })}</span>
      </button>
      {open && (
        <div id={menuId} className="shell-avatar-menu__panel">
          <p className="shell-avatar-menu__name">{name}</p>
          <p className="shell-avatar-menu__roles">
            {state.profile.roles.map((role) => t(`companyApp.roles.${role}`)).join(', ')}
          </p>
          <button type="button" className="wh-button wh-button--secondary" onClick={() => void logOut()}>
            {t('companyApp.logout')}
          </button>
        </div>
      )}
    </div>
  );
}
