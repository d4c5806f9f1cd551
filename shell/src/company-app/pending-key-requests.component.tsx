import { useEffect, useState, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { navigateToUrl } from 'single-spa';
import { getTeamKeys } from '@whistle/api-client';
import { staffSession } from '../session/staff-session';

const REVIEW_PATH = '/company/settings/security';

/**
 * An admin who holds the company key: how many team members wait for access to reports. Only an admin's browser can
 * grant it, so a request nobody sees is a handler who cannot work.
 */
export function PendingKeyRequests() {
  const { t } = useTranslation('shell');
  const [waiting, setWaiting] = useState(0);

  useEffect(() => {
    getTeamKeys(staffSession.api).then(
      ({ people }) => setWaiting(people.filter((person) => person.access_request).length),
      () => setWaiting(0),
    );
  }, []);

  if (waiting === 0) return null;
  const follow = (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    navigateToUrl(REVIEW_PATH);
  };
  return (
    <section className="wh-card shell-keys-panel" role="status">
      <p>
        {t('keys.pendingRequests', { count: waiting })}{' '}
        <a href={REVIEW_PATH} onClick={follow}>
          {t('keys.reviewRequests')}
        </a>
      </p>
    </section>
  );
}
